import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

final class StreamOccupancyTests: XCTestCase {
    private let joinGap = 0.001

    /// Continuous events at random times and lengths (some empty, some touching within the gap).
    private func pattern(_ random: inout SplitMix64) -> HapticPattern {
        HapticPattern(events: (0..<Int.random(in: 1...60, using: &random)).map { _ in
            let duration = Bool.random(using: &random) ? 0 : Double.random(in: 0...0.2, using: &random)
            let time = (Double.random(in: 0...3, using: &random) * 1000).rounded() / 1000
            return HapticEvent(type: .hapticContinuous, time: time, duration: duration, parameters: [EventParameter(.hapticIntensity, 0.5)])
        })
    }

    func testAddingContentJoinsSpansExactlyAsComputingThemAgainDoes() {
        var random = SplitMix64(seed: 0x5B_A115)
        for _ in 0..<500 {
            let pattern = pattern(&random)
            let first = Int.random(in: 0...pattern.events.count, using: &random)
            var stream = StreamContent()
            stream.events = Array(0..<first)
            var occupancy = StreamOccupancy(stream.spans(in: pattern, joinGap: joinGap), joinGap: joinGap, before: 0.001, after: 0.001)
            for index in first..<pattern.events.count {
                stream.events.append(index)
                let event = pattern.events[index]
                occupancy.add(TimeSpan(start: event.time, end: event.soundingEnd))
                XCTAssertEqual(occupancy.spans, stream.spans(in: pattern, joinGap: joinGap))
                if event.soundingEnd > event.time {
                    let holding = try? XCTUnwrap(occupancy.index(holding: event.time))
                    XCTAssertTrue(holding.map { occupancy.spans[$0].start <= event.time && event.soundingEnd <= occupancy.spans[$0].end } ?? false)
                }
            }
        }
    }

    func testACollisionIsFoundExactlyWhenAScanOfTheBusyStretchesFindsIt() {
        var random = SplitMix64(seed: 0xC0_11DE)
        for _ in 0..<500 {
            let pattern = pattern(&random)
            var stream = StreamContent()
            stream.events = Array(pattern.events.indices)
            let occupancy = StreamOccupancy(stream.spans(in: pattern, joinGap: joinGap), joinGap: joinGap, before: 0.001, after: 0.002)
            let busy = occupancy.spans.indices.map(occupancy.busy(at:))
            for _ in 0..<20 {
                let start = Double.random(in: -0.1...3.3, using: &random)
                let item = TimeSpan(start: start, end: start + Double.random(in: 0.000_1...0.061, using: &random))
                XCTAssertEqual(occupancy.collides(with: item), busy.contains { $0.overlaps(item) }, "\(item)")
            }
        }
    }

    func testSpansThatOnlyTouchDoNotCollide() {
        let occupancy = StreamOccupancy([TimeSpan(start: 0, end: 1), TimeSpan(start: 2, end: 3)], joinGap: joinGap, before: 0, after: 0)
        XCTAssertFalse(occupancy.collides(with: TimeSpan(start: 1, end: 2)))
        XCTAssertTrue(occupancy.collides(with: TimeSpan(start: 0.999, end: 2)))
        XCTAssertTrue(occupancy.collides(with: TimeSpan(start: 1, end: 2.001)))
        XCTAssertFalse(StreamOccupancy([], joinGap: joinGap, before: 0, after: 0).collides(with: TimeSpan(start: 0, end: 1)))
    }

    /// Each tap is 50 ms before the next, and the last 50 ms before a rumble: only the last one
    /// collides with the rumble, and each moved tap's pulse then catches the one before it. Every
    /// tap streams, one round each; compiling computed every span again in every round.
    func testAChainOfTapsEachCaughtByTheOneAfterItAllStream() {
        let taps = 3_000
        var events = (0..<taps).map { HapticEvent(type: .hapticTransient, time: Double($0) * 0.05, parameters: [EventParameter(.hapticIntensity, 1)]) }
        events.append(HapticEvent(type: .hapticContinuous, time: Double(taps) * 0.05, duration: 1, parameters: [EventParameter(.hapticIntensity, 1)]))
        let caps = ActuatorCapabilities(
            kind: .lra, romLibrary: .lra, supportsRealtimeAmplitude: true, supportsSignedAmplitude: false,
            supportsPCM: false, resonantFrequency: 175, frequencyAdjustable: false,
            amplitudeUpdateCost: .microseconds(73), maximumContinuousDrive: nil
        )
        let program = PatternCompiler(capabilities: caps, options: CompilerOptions(maximumDuration: 600)).compile(HapticPattern(events: events))
        let dropped = program.warnings.filter { $0.message.contains("dropped while streaming") }
        XCTAssertEqual(dropped.map(\.time), (0..<taps).reversed().map { Double($0) * 0.05 }, "one round each, from the rumble back")
        XCTAssertFalse(program.commands.contains { if case .trigger = $0.command { true } else { false } })
    }
}
