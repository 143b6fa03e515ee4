import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

final class DeadlineSchedulerMetricsTests: XCTestCase {
    func testPercentilesOfKnownDataAreWithinTheHistogramResolution() {
        var histogram = LatenessHistogram()
        for microseconds in (1...100).reversed() {
            histogram.record(.microseconds(microseconds))
        }
        XCTAssertEqual(histogram.count, 100)
        XCTAssertEqual(histogram.minimum, .microseconds(1))
        XCTAssertEqual(histogram.maximum, .microseconds(100))
        XCTAssertEqual(histogram.percentile(0), .microseconds(1))
        XCTAssertEqual(histogram.percentile(100), .microseconds(100))
        for (p, exact) in [(50.0, 50.0), (90.0, 90.0), (99.0, 99.0), (25.0, 25.0)] {
            let value = Double(histogram.percentile(p).nanoseconds) / 1_000
            XCTAssertLessThanOrEqual(value, exact, "p\(p)")
            XCTAssertGreaterThanOrEqual(value, exact * (1 - 1.0 / 64), "p\(p)")
        }
    }

    func testSmallValuesAreExactAndTheTailIsSeparatedFromTheBody() {
        var histogram = LatenessHistogram()
        for _ in 0..<990 { histogram.record(.nanoseconds(100)) }
        for _ in 0..<10 { histogram.record(.milliseconds(4)) }
        XCTAssertEqual(histogram.percentile(50), .nanoseconds(100))
        XCTAssertEqual(histogram.percentile(99), .nanoseconds(100))
        let tail = histogram.percentile(99.1)
        XCTAssertLessThanOrEqual(tail, .milliseconds(4))
        XCTAssertGreaterThanOrEqual(tail, .milliseconds(4) * (63.0 / 64))
        XCTAssertEqual(histogram.maximum, .milliseconds(4))
    }

    func testEmptyHistogramAndNegativeSamples() {
        var histogram = LatenessHistogram()
        XCTAssertEqual(histogram.percentile(99), .zero)
        XCTAssertEqual(histogram.maximum, .zero)
        histogram.record(.microseconds(-5))
        XCTAssertEqual(histogram.count, 1)
        XCTAssertEqual(histogram.percentile(50), .zero)
        XCTAssertEqual(histogram.percentile(-3), .zero)
    }

    func testHugeValuesKeepAnExactMaximum() {
        var histogram = LatenessHistogram()
        histogram.record(.seconds(7_200))
        histogram.record(.seconds(1))
        XCTAssertEqual(histogram.maximum, .seconds(7_200))
        XCTAssertEqual(histogram.percentile(100), .seconds(7_200))
        let p50 = histogram.percentile(50).nanoseconds
        XCTAssertLessThanOrEqual(p50, 1_000_000_000)
        XCTAssertGreaterThan(p50, 1_000_000_000 * 63 / 64)
    }

    func testSchedulerMetricsSnapshotDoesNotChangeWithLaterDispatches() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock)
        scheduler.schedule(at: ms(1), class: .control, costKey: "k") {}
        clock.advance(to: ms(2))
        scheduler.run(until: ms(2))
        let snapshot = scheduler.metrics
        scheduler.schedule(at: ms(3), class: .control, costKey: "k") {}
        clock.advance(to: ms(5))
        scheduler.run(until: ms(5))
        XCTAssertEqual(snapshot.dispatched, 1)
        XCTAssertEqual(snapshot.lateness.count, 1)
        XCTAssertEqual(snapshot.lateness.maximum, .milliseconds(1))
        XCTAssertEqual(scheduler.metrics.lateness.count, 2)
        XCTAssertEqual(scheduler.metrics.lateness.maximum, .milliseconds(2))
    }
}
