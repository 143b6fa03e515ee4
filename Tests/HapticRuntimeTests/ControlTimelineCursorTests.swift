import HardwareMocks
import XCTest
@testable import HapticRuntime

/// A look-up that starts from a `ControlTimeline.Hint` must give, bit for bit, what a look-up that
/// searches gives: at times that only grow (a renderer's samples, with skipped stretches), at
/// times that jump back, on curves with points at equal times, and where parameters and curves
/// take turns deciding.
final class ControlTimelineCursorTests: XCTestCase {
    private static let ids: [DynamicParameterID] = [.hapticIntensityControl, .hapticSharpnessControl]

    /// A timeline of random parameters and curves for the two haptic controls: times on a coarse
    /// grid so that starts, points and sample times often coincide.
    private func randomTimeline(using random: inout SplitMix64) -> ControlTimeline {
        var parameters: [DynamicParameter] = []
        var curves: [ParameterCurve] = []
        for id in Self.ids {
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                parameters.append(DynamicParameter(id, value: Double.random(in: -0.5...1.5, using: &random),
                                                   time: Double(Int.random(in: 0...40, using: &random)) / 8))
            }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let points = (0..<Int.random(in: 1...40, using: &random)).map { _ in
                    ControlPoint(time: Double(Int.random(in: 0...80, using: &random)) / 16, value: Double.random(in: 0...1, using: &random))
                }
                curves.append(ParameterCurve(id, time: Double(Int.random(in: 0...40, using: &random)) / 8, controlPoints: points))
            }
        }
        return ControlTimeline(parameters: parameters, curves: curves)
    }

    func testLookUpsFromAHintAtGrowingTimesGiveWhatASearchGives() {
        var random = SplitMix64(seed: 0xC0_7501)
        var compared = 0
        for _ in 0..<500 {
            let timeline = randomTimeline(using: &random)
            var cursor = ControlTimeline.Cursor()
            var time = -0.1
            while time < 12 {
                XCTAssertEqual(timeline.value(of: .hapticIntensityControl, at: time, hint: &cursor.level),
                               timeline.value(of: .hapticIntensityControl, at: time), "intensity at \(time)")
                XCTAssertEqual(timeline.value(of: .hapticSharpnessControl, at: time, hint: &cursor.tone),
                               timeline.value(of: .hapticSharpnessControl, at: time), "sharpness at \(time)")
                compared += 2
                // Mostly a sample period, sometimes a skipped stretch, sometimes the same time again.
                switch Int.random(in: 0..<20, using: &random) {
                case 0: time += Double.random(in: 0...3, using: &random)
                case 1: break
                default: time += 0.001 * Double(Int.random(in: 1...20, using: &random))
                }
                if Int.random(in: 0..<50, using: &random) == 0 { time = Double(Int.random(in: 0...80, using: &random)) / 16 }
            }
        }
        XCTAssertGreaterThan(compared, 100_000)
    }

    func testLookUpsFromAHintAtRandomTimesGiveWhatASearchGives() {
        var random = SplitMix64(seed: 0x7A_11DE)
        for _ in 0..<300 {
            let timeline = randomTimeline(using: &random)
            var hint = ControlTimeline.Hint()
            for _ in 0..<200 {
                let time = Int.random(in: 0..<3, using: &random) == 0
                    ? Double(Int.random(in: -8...100, using: &random)) / 16 : Double.random(in: -1...7, using: &random)
                XCTAssertEqual(timeline.value(of: .hapticIntensityControl, at: time, hint: &hint),
                               timeline.value(of: .hapticIntensityControl, at: time), "at \(time)")
            }
        }
    }

    /// One hint carried from one control to another (a renderer's events of two channels) is
    /// only a wrong guess: it is checked and searched past.
    func testAHintFromAnotherControlIsOnlyAMiss() {
        var random = SplitMix64(seed: 0x0DD)
        for _ in 0..<200 {
            let timeline = randomTimeline(using: &random)
            var hint = ControlTimeline.Hint()
            for step in 0..<400 {
                let time = Double(step) * 0.0125
                let id = Self.ids[step % 2]
                XCTAssertEqual(timeline.value(of: id, at: time, hint: &hint), timeline.value(of: id, at: time), "\(id) at \(time)")
            }
        }
    }

    /// Times that are not numbers cannot be ordered: the hint is not trusted there, and the
    /// answers are the search's.
    func testATimelineWithNaNTimesIsSearchedEveryTime() {
        let curve = ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: [
            ControlPoint(time: 0, value: 0.2), ControlPoint(time: .nan, value: 0.9), ControlPoint(time: 1, value: 0.6),
            ControlPoint(time: 2, value: 1),
        ])
        let timeline = ControlTimeline(parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, time: .nan)], curves: [curve])
        var hint = ControlTimeline.Hint()
        for step in 0...300 {
            let time = Double(step) * 0.01
            let searched = timeline.value(of: .hapticIntensityControl, at: time)
            let hinted = timeline.value(of: .hapticIntensityControl, at: time, hint: &hint)
            XCTAssert(hinted == searched || hinted.isNaN && searched.isNaN, "at \(time): \(hinted) against \(searched)")
        }
    }
}
