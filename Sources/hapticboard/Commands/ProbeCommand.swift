import ActuatorHAL
import Foundation
import ActuatorHALLinux
import ArgumentParser
import HapticRuntime

/// `hapticboard probe`: finds the board's DRV260x chips and prints what they are.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Find the board's DRV260x haptic drivers and print bus, address, variant, DEVICE_ID and status.",
        discussion: """
        Each chip is powered up (EN high, then the datasheet's 250 µs) and its STATUS register read: \
        DEVICE_ID names the variant (3 DRV2605, 4 DRV2604, 6 DRV2604L, 7 DRV2605L); DIAG_RESULT, \
        FB_STS, OVER_TEMP and OC_DETECT are printed as flags. Nothing is written to the chip.

        --ff lists the input devices with force feedback (/dev/input/event*, read-only) instead: \
        node, name, bus and vendor:product ids, effect slots, every FF_* capability, and the \
        effect an evdev-ff actuator would drive it with (rumble, else sine periodic, else \
        constant). No board is opened.
        """
    )

    @OptionGroup var options: GlobalOptions

    @Flag(name: .long, help: "List the input devices with force feedback (EV_FF) and their capabilities instead of probing chips.")
    var ff = false

    func run() throws {
        options.bootstrapLogging()
        if ff {
            let devices = InputDeviceInfo.all().compactMap(ForceFeedbackDeviceReport.init)
            if options.json {
                try printJSON(devices)
            } else if devices.isEmpty {
                print("no input device with force feedback (EV_FF) in \(InputDeviceInfo.folder)")
            } else {
                for device in devices { print(device.text) }
            }
            return
        }
        let board = try CommandBoard.open(options.resolvedBoard)
        // Closed only at an orderly end, after the chips were stopped; a death leaves the guardian to it.
        defer { board.close() }
        var reports: [ProbeReport] = []
        for chip in board.opened.actuators.compactMap(\.drv2605) { reports.append(try ProbeReport.probe(chip)) }
        try options.print(board: board.name, reports, text: \.text)
    }
}

/// One force-feedback input device, as `probe --ff` prints it.
struct ForceFeedbackDeviceReport: Encodable {
    var path: String
    var name: String
    var busType: Int
    var vendor: String
    var product: String
    var version: Int
    var effectSlots: Int
    var capabilities: [String]
    /// The effect an evdev-ff actuator uses on it; nil when it has none hapticboard drives.
    var drive: String?

    /// The report of a device with EV_FF; nil for one without.
    init?(_ info: InputDeviceInfo) {
        guard let capabilities = info.forceFeedback else { return nil }
        path = info.path
        name = info.name
        busType = Int(info.busType)
        vendor = String(format: "0x%04x", info.vendor)
        product = String(format: "0x%04x", info.product)
        version = Int(info.version)
        effectSlots = capabilities.effectSlots
        self.capabilities = capabilities.names
        drive = ForceFeedbackDrive(capabilities: capabilities)?.rawValue
    }

    var text: String {
        let use = drive.map { "evdev-ff drives it with \($0)" } ?? "evdev-ff cannot drive it: it \(ForceFeedbackDrive.requirement)"
        return "\(path): '\(name)' bus 0x\(String(busType, radix: 16)) \(vendor.dropFirst(2)):\(product.dropFirst(2)) v\(version), \(effectSlots) effects: \(capabilities.joined(separator: " ")); \(use)"
    }
}
