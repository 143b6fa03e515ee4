import Foundation
import XCTest

/// The built `hapticboard` binary, which SwiftPM places next to the test bundle, run as a child
/// process the way a user runs it.
struct BuiltCommand {
    /// What a finished run left behind.
    struct Run {
        var status: Int32
        var output: String
        var errorOutput: String

        /// Standard output parsed as a JSON object.
        func json(file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "not a JSON object: \(output)\n\(errorOutput)", file: file, line: line)
        }
    }

    /// The package's root folder, for Examples/ and Boards/.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let binary: URL

    /// The package's executable `name` (the command, or an example), built beside the tests.
    init(_ name: String = "hapticboard") throws {
        let testBundle = URL(fileURLWithPath: CommandLine.arguments[0])
        binary = testBundle.deletingLastPathComponent().appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw XCTSkip("\(name) is not built next to the tests at \(binary.path)")
        }
    }

    /// A path under the package root.
    static func path(_ relative: String) -> String {
        packageRoot.appendingPathComponent(relative).path
    }

    /// A child process set up to run with `arguments` in the package root, its output piped.
    func process(_ arguments: [String], environment: [String: String] = [:]) -> (Process, output: Pipe, errorOutput: Pipe) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = Self.packageRoot
        var merged = ProcessInfo.processInfo.environment
        merged.removeValue(forKey: "HAPTICBOARD_BOARD")
        merged.merge(environment) { _, new in new }
        process.environment = merged
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        return (process, output, errorOutput)
    }

    /// Runs to the end.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let (process, output, errorOutput) = self.process(arguments, environment: environment)
        try process.run()
        return Self.finish(process, output: output, errorOutput: errorOutput)
    }

    /// Reads both pipes to their end and waits for the exit. Standard error is read on another
    /// thread so that neither pipe can fill up and block the child.
    static func finish(_ process: Process, output: Pipe, errorOutput: Pipe, errorPrefix: Data = Data()) -> Run {
        let errorData = ErrorCollector()
        let reader = Thread { errorData.set(errorOutput.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errors = errorData.wait()
        return Run(
            status: process.terminationStatus,
            output: String(decoding: outputData, as: UTF8.self),
            errorOutput: String(decoding: errorPrefix + errors, as: UTF8.self)
        )
    }
}

/// Data handed from a reader thread to the test thread.
private final class ErrorCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private var data: Data?

    func set(_ value: Data) {
        condition.lock()
        data = value
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> Data {
        condition.lock()
        defer { condition.unlock() }
        while data == nil { condition.wait() }
        return data ?? Data()
    }
}
