import ActuatorHAL
import Foundation

/// Why the EN pin's level could not be read.
struct EnablePinFileError: Error, CustomStringConvertible {
    var path: String
    var contents: String?

    var description: String {
        guard let contents else { return "cannot read the EN level from \(path)" }
        return "\(path) holds '\(contents)', not 0 or 1"
    }
}

/// The EN pin as seen from the outside of the chip: a file that reads `0` or `1`, such as
/// gpio-sim's `/sys/devices/platform/gpio-sim.N/gpiochipM/sim_gpioK/value`, which follows whatever
/// the process holding the line drives.
struct EnablePinFile {
    var path: String

    func level() throws(EnablePinFileError) -> LineLevel {
        guard let data = FileManager.default.contents(atPath: path) else { throw EnablePinFileError(path: path) }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        switch text {
        case "0": return .low
        case "1": return .high
        default: throw EnablePinFileError(path: path, contents: text)
        }
    }
}
