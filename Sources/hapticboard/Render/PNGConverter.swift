import Foundation

/// Turns an SVG file into PNG with whichever converter is installed: `rsvg-convert` (librsvg2-bin)
/// or ImageMagick's `convert`. hapticboard draws SVG itself and adds no image library.
enum PNGConverter {
    /// Tried in order; each maps (svg, png) to its arguments.
    static let converters: [(name: String, arguments: @Sendable (String, String) -> [String])] = [
        ("rsvg-convert", { svg, png in ["-o", png, svg] }),
        ("convert", { svg, png in [svg, png] }),
    ]

    static func convert(svg: String, to png: String) throws(CommandLineError) {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for converter in converters {
            guard let executable = path.split(separator: ":").map({ "\($0)/\(converter.name)" }).first(where: FileManager.default.isExecutableFile(atPath:)) else { continue }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = converter.arguments(svg, png)
            let errors = Pipe()
            process.standardError = errors
            do {
                try process.run()
            } catch {
                throw .pngConversionFailed(command: converter.name, status: -1, output: "\(error)")
            }
            let output = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw .pngConversionFailed(command: converter.name, status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
            }
            return
        }
        throw .noPNGConverter(tried: converters.map(\.name))
    }
}
