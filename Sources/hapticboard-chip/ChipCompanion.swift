import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HardwareMocks

/// `hapticboard-chip`: makes Linux's i2c-stub behave as a DRV2605 for the kernel lane.
///
/// i2c-stub is a 256-byte register file: GO never clears, DEV_RESET never clears, STATUS reads 0.
/// This process polls it through i2c-dev and runs the HardwareMocks `DRV2605Model` on what the host
/// writes (`DRV2605RegisterStubMirror`), with EN read from gpio-sim's side of the enable line, so
/// `hapticboard` talks to the real kernel interfaces and still meets a chip that answers like one.
/// SIGUSR1, SIGUSR2 and SIGHUP make the model raise a fault the stub cannot (`FaultSignal`).
/// It runs until killed; a bus error (the stub's address removed) is reported once and polling
/// goes on, starting from power-on reset when the chip answers again.
@main
struct ChipCompanion {
    static func main() {
        let options: CompanionOptions
        do {
            options = try CompanionOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            report("error: \(error)")
            exit(2)
        }
        do {
            try run(options)
        } catch {
            report("error: \(error)")
            exit(1)
        }
    }

    private static func run(_ options: CompanionOptions) throws {
        let wallClock = SystemMonotonicClock()
        let clock = VirtualClock(start: wallClock.now)
        let enablePin = options.enableValuePath.map(EnablePinFile.init(path:))
        let bus = try LinuxI2CBus(path: options.busPath)
        let mirror = DRV2605RegisterStubMirror(
            bus: bus, address: options.address, variant: options.variant, clock: clock,
            enable: try enablePin?.level() ?? .high
        )
        try mirror.start()
        FaultSignal.install()
        report("\(options.variant) at \(options.address) on \(options.busPath)\(bus.usesSMBusRegisterAccess ? " (SMBus)" : ""), EN \(options.enableValuePath ?? "always high"): ready")
        var lastError: String?
        while true {
            try wallClock.sleep(until: wallClock.now + options.pollInterval)
            clock.advance(to: wallClock.now)
            for fault in FaultSignal.takeRequested() {
                fault.inject(into: mirror.model)
                report("injected \(fault)")
            }
            do {
                let events = try mirror.poll(enable: enablePin?.level() ?? .high)
                if lastError != nil {
                    report("the chip answers again: power-on reset")
                    lastError = nil
                }
                if options.verbose {
                    for event in events { report("\(event)") }
                }
            } catch {
                let text = "\(error)"
                if text != lastError { report("\(text); polling on") }
                lastError = text
            }
        }
    }

    private static func report(_ line: String) {
        FileHandle.standardError.write(Data("hapticboard-chip: \(line)\n".utf8))
    }
}
