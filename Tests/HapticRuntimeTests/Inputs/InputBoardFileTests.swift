import ActuatorHAL
import BoardFiles
import Foundation
import HardwareMocks
import SystemPackage
import XCTest
@testable import HapticRuntime

/// `inputs:` in board files: decoding, every problem located, and the inputs running on the
/// simulated board's lines.
final class InputBoardFileTests: XCTestCase {
    private let simBoard = """
        board: panel
        buses:
          - name: sim
            device: sim
            clock-frequency: 400000
        actuators:
          - name: main
            compatible: ti,drv2605l
            bus: sim
            enable-gpios: EN
            actuator-mode: LRA
            vib-rated-mv: 2000
            vib-overdrive-mv: 2800
            resonant-frequency-hz: 175
        """

    private func problems(in inputs: String) throws -> [String] {
        let file = try BoardFile.parse(simBoard + "\n" + inputs, path: "panel.yml")
        return BoardRules(file: file).problems().map(\.description)
    }

    func testAValidInputsSectionDecodes() throws {
        let board = try Board(yaml: simBoard + """

            inputs:
              buttons:
                - name: select
                  line: GPIO17
                  active: low
                  bias: pull-up
                  debounce-ms: 10
                  key: BTN_SOUTH
              encoders:
                - name: volume
                  lines: [GPIO22, gpiochip0:23]
                  steps-per-detent: 2
                  axis: REL_WHEEL
              bindings:
                - input: select
                  on: press
                  effect: 47
                  priority: 2
                - input: select
                  on: while-held
                  notation: "continuous 0.2s:\\n  intensity: loud"
                  tail: {feedback: impact/light}
                  max-hold-ms: 5000
                - input: volume
                  on: step
                  direction: -1
                  feedback: selection
                  retrigger: layer
            """, source: "panel.yml")
        let inputs = board.inputs
        XCTAssertEqual(inputs.buttons, [.init(name: "select", line: .named("GPIO17"), settings: InputLineSettings(bias: .pullUp, activeLow: true, debounce: .milliseconds(10)), key: 0x130)])
        XCTAssertEqual(inputs.encoders.first?.b, .chipOffset(chip: "gpiochip0", offset: 23))
        XCTAssertEqual(inputs.encoders.first?.transitionsPerDetent, 2)
        XCTAssertEqual(inputs.encoders.first?.axis, 8)
        XCTAssertEqual(inputs.bindings.count, 3)
        XCTAssertEqual(inputs.bindings[0].content, .effect(47))
        XCTAssertEqual(inputs.bindings[0].priority, 2)
        guard case .whileHeld(let tail) = inputs.bindings[1].trigger else { return XCTFail("\(inputs.bindings[1].trigger)") }
        XCTAssertEqual(tail, .feedback(.impact(.light), intensity: 1))
        XCTAssertEqual(inputs.bindings[1].maximumHold, .seconds(5))
        XCTAssertEqual(inputs.bindings[2].trigger, .step(direction: -1))
        XCTAssertEqual(inputs.bindings[2].retrigger, .layer)
    }

    func testBoardsCheckProblemsAreLocatedWithTheirKeys() throws {
        let found = try problems(in: """
            inputs:
              buttons:
                - name: select
                  line: "gpiochip0:"
                - name: back
                  line: EN
              encoders:
                - name: volume
                  lines: [GPIO22]
              bindings:
                - input: slect
                  on: press
                  effect: 47
                - input: volume
                  on: step
                  pattern: click
                - input: back
                  on: hold
                  effect: 200
                  priority: 5000
            """)
        XCTAssertTrue(found.contains { $0.hasPrefix("panel.yml:18:") && $0.contains("inputs.buttons[0].line") }, found.joined(separator: "\n"))
        XCTAssertTrue(found.contains { $0.contains("inputs.buttons[1].line") && $0.contains("enable line of 'main'") }, found.joined(separator: "\n"))
        XCTAssertTrue(found.contains { $0.contains("inputs.encoders[0].lines") && $0.contains("two lines") }, found.joined(separator: "\n"))
        XCTAssertTrue(found.contains { $0.contains("inputs.bindings[0].input") && $0.contains("no input named 'slect'") }, found.joined(separator: "\n"))
        XCTAssertTrue(found.contains { $0.contains("inputs.bindings[1].pattern") && $0.contains("library") }, found.joined(separator: "\n"))
        XCTAssertTrue(found.contains { $0.contains("inputs.bindings[2]") && $0.contains("after-ms") }, found.joined(separator: "\n"))
        XCTAssertTrue(found.contains { $0.contains("inputs.bindings[2].effect") && $0.contains("1...123") }, found.joined(separator: "\n"))
        XCTAssertTrue(found.contains { $0.contains("inputs.bindings[2].priority") && $0.contains("-1000...1000") }, found.joined(separator: "\n"))
        XCTAssertTrue(found.allSatisfy { $0.hasPrefix("panel.yml:") }, "every problem has file:line:column")
    }

    func testABindingToAPatternMissingFromTheLibraryFails() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inputs-library-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "click\n".write(to: folder.appendingPathComponent("click.hnl"), atomically: true, encoding: .utf8)
        let found = try problems(in: """
            inputs:
              library: \(folder.path)
              buttons:
                - {name: select, line: GPIO17}
              bindings:
                - {input: select, on: press, pattern: click}
                - {input: select, on: release, pattern: clack}
            """)
        XCTAssertEqual(found.count, 1, found.joined(separator: "\n"))
        XCTAssertTrue(found[0].contains("inputs.bindings[1].pattern") && found[0].contains("did you mean 'click'"), found[0])
    }

    func testUnknownKeysAndValuesAreRefused() throws {
        let found = try problems(in: """
            inputs:
              buttons:
                - {name: select, line: GPIO17, activ: low, bias: pullup, key: BTN_NOPE}
              bindings:
                - {input: select, on: tap, effect: 1, feedback: selection}
            """)
        let text = found.joined(separator: "\n")
        XCTAssertTrue(text.contains("unknown key 'activ'; did you mean 'active'?"), text)
        XCTAssertTrue(text.contains("inputs.buttons[0].bias"), text)
        XCTAssertTrue(text.contains("inputs.buttons[0].key"), text)
        XCTAssertTrue(text.contains("inputs.bindings[0].on"), text)
        XCTAssertTrue(text.contains("not several"), text)
    }

    /// A service for `board` opened on `hardware`, started on its virtual clock (the tests step
    /// the readers themselves); shut it down after.
    private func startedService(_ board: Board, on hardware: SimulatedBoardHardware) throws -> HapticService {
        let service = HapticService(board: try board.open(on: hardware), scheduler: DeadlineScheduler(clock: hardware.virtualClock),
                                    library: ContentLibrary(folder: FileManager.default.temporaryDirectory))
        try service.start(timing: nil)
        return service
    }

    func testTheBoardsInputsRunOnSimulatedLines() throws {
        let board = try Board(yaml: simBoard + """

            inputs:
              buttons:
                - {name: select, line: GPIO17, active: low, debounce-ms: 10}
              bindings:
                - {input: select, on: press, effect: 47}
            """, source: "panel.yml")
        let hardware = SimulatedBoardHardware()
        hardware.initialInputLevels["GPIO17"] = .high
        hardware.inputsDebounceInKernel = false
        let service = try startedService(board, on: hardware)
        defer { service.shutDown() }
        let inputs = try BoardInputs(board.inputs, hardware: hardware, service: service)
        defer { inputs.stop() }
        let line = try XCTUnwrap(hardware.inputLines["GPIO17"])
        let reader = try XCTUnwrap(inputs.readers.first)

        // A bouncing press: 20 edges in 5 ms on the wire (active low: it starts with a fall).
        let start = hardware.virtualClock.now + .milliseconds(1)
        for index in 0..<20 { line.schedule(index.isMultiple(of: 2) ? .falling : .rising, at: start + .microseconds(Int64(index) * 250)) }
        var seen: [InputEvent] = []
        for _ in 0..<40 { seen += try reader.step(timeout: .milliseconds(2)) }
        XCTAssertEqual(seen.map(\.kind), [.press, .release], "one press, and the release it bounced back to once settled")
        XCTAssertEqual(seen.first?.timestamp, start)
        XCTAssertEqual(service.counters.triggers, 1)
        XCTAssertThrowsError(try hardware.openInput(.named("GPIO17"), settings: InputLineSettings(), for: "again")) { error in
            XCTAssertEqual(error as? GPIOError, .lineBusy("GPIO17"))
        }
    }

    func testALineThatVanishesEndsItsReaderWithOneErrorAndTheOtherInputsAndTheServiceGoOn() throws {
        let board = try Board(yaml: simBoard + """

            inputs:
              buttons:
                - {name: select, line: GPIO17}
                - {name: back, line: GPIO27}
              bindings:
                - {input: select, on: press, effect: 47}
                - {input: back, on: press, effect: 1}
            """, source: "panel.yml")
        let hardware = SimulatedBoardHardware()
        let service = try startedService(board, on: hardware)
        defer { service.shutDown() }
        let inputs = try BoardInputs(board.inputs, hardware: hardware, service: service)
        defer { inputs.stop() }
        let select = try XCTUnwrap(inputs.readers.first { $0.role.input == "select" })
        let back = try XCTUnwrap(inputs.readers.first { $0.role.input == "back" })
        let failures = Collected<String>()
        let failed = expectation(description: "the reader reports its line's failure")
        select.failureHandler = { role, error in
            failures.append("\(role.input): \(error)")
            failed.fulfill()
        }

        try XCTUnwrap(hardware.inputLines["GPIO17"]).vanish()
        // The vanished line's reader runs on its own thread, which ends at the first failure (the
        // timeout only bounds a hang).
        try select.start()
        wait(for: [failed], timeout: 10)
        select.stop()
        XCTAssertEqual(failures.values, ["select: GPIO line GPIO17: wait for edge failed: \(Errno.operationNotSupportedByDevice) (errno \(Errno.operationNotSupportedByDevice.rawValue))"])
        XCTAssertEqual(select.failure, .io(line: "GPIO17", operation: "wait for edge", errno: .operationNotSupportedByDevice))

        // The other button still plays, and so does a request from any other client.
        try XCTUnwrap(hardware.inputLines["GPIO27"]).inject(.rising)
        XCTAssertEqual(try back.step(timeout: .milliseconds(2)).map(\.kind), [.press])
        XCTAssertEqual(service.counters.triggers, 1)
        XCTAssertNoThrow(try service.play(ServicePlayRequest(content: .effect(47)), from: ServiceClient(id: 99)))
        XCTAssertEqual(service.counters.triggers, 2)
    }

    func testPressesAndDetentsAreReportedOnTheForceFeedbackDeviceAsKeysAndAWheel() throws {
        let board = try Board(yaml: simBoard + """

            inputs:
              buttons:
                - {name: fire, line: GPIO17, key: BTN_SOUTH}
              encoders:
                - {name: wheel, lines: [GPIO5, GPIO6], axis: REL_WHEEL}
            """, source: "panel.yml")
        XCTAssertEqual(board.forceFeedbackSetup.keys, [0x130])
        XCTAssertEqual(board.forceFeedbackSetup.relativeAxes, [8])
        // `rumble` reads no buttons: its device has neither.
        let rumbleOnly = board.forceFeedbackSetup.forceFeedbackOnly
        XCTAssertEqual(rumbleOnly.keys, [])
        XCTAssertEqual(rumbleOnly.relativeAxes, [])
        let hardware = SimulatedBoardHardware()
        let device = try hardware.createForceFeedbackDevice(board.forceFeedbackSetup)
        let inputs = try BoardInputs(board.inputs, hardware: hardware, service: nil, device: device)
        let reader = { (line: String) in try XCTUnwrap(inputs.readers.first { $0.line.name == line }) }
        hardware.inputLines["GPIO17"]?.inject(.rising)
        try reader("GPIO17").step(timeout: .zero)
        hardware.inputLines["GPIO17"]?.inject(.falling)
        try reader("GPIO17").step(timeout: .zero)
        // One detent backward: B leads A.
        for (line, edge) in [("GPIO6", Edge.rising), ("GPIO5", .rising), ("GPIO6", .falling), ("GPIO5", .falling)] {
            hardware.inputLines[line]?.inject(edge)
            try reader(line).step(timeout: .zero)
        }
        let simulated = try XCTUnwrap(hardware.forceFeedbackDevices.first)
        XCTAssertEqual(simulated.emittedEvents, [.key(0x130, pressed: true), .key(0x130, pressed: false), .relative(8, -1)])
    }

    func testKeysOfAnInputDevicePlayTheirBindingsWithTheKernelsTimestamp() throws {
        let board = try Board(yaml: simBoard + """

            inputs:
              evdev:
                device: /dev/input/by-id/usb-keypad-event-kbd
                keys: {enter: KEY_ENTER, back: "1"}
              bindings:
                - {input: enter, on: press, effect: 47}
                - {input: back, on: release, effect: 1}
            """, source: "panel.yml")
        let hardware = SimulatedBoardHardware()
        let service = try startedService(board, on: hardware)
        defer { service.shutDown() }
        let inputs = try BoardInputs(board.inputs, hardware: hardware, service: service)
        let keys = try XCTUnwrap(hardware.keySources["/dev/input/by-id/usb-keypad-event-kbd"])
        let reader = try XCTUnwrap(inputs.keyReader)
        keys.inject(28, pressed: true, at: hardware.virtualClock.now)
        keys.inject(30, pressed: true, at: hardware.virtualClock.now)
        keys.inject(1, pressed: true, at: hardware.virtualClock.now)
        keys.inject(1, pressed: false, at: hardware.virtualClock.now + .milliseconds(80))
        var events: [InputEvent] = []
        for _ in 0..<4 { events += try reader.step(timeout: .zero) }
        XCTAssertEqual(events.map(\.description), ["enter press", "back press", "back release"], "KEY_A is no input")
        XCTAssertEqual(events.last?.timestamp, hardware.virtualClock.now + .milliseconds(80))
        XCTAssertEqual(service.counters.triggers, 2)
        keys.unplug()
        XCTAssertThrowsError(try reader.step(timeout: .zero)) { error in
            XCTAssertEqual(error as? KeySourceError, .gone(path: "/dev/input/by-id/usb-keypad-event-kbd"))
        }
    }
}
