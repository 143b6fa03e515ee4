import Foundation
import XCTest
@testable import HapticRuntime

final class BelowRealTimeTests: XCTestCase {
    private struct Scheduling: Equatable {
        var policy: Int32
        var priority: Int32

        static var current: Scheduling {
            var policy: Int32 = 0
            var parameter = sched_param()
            pthread_getschedparam(pthread_self(), &policy, &parameter)
            return Scheduling(policy: policy, priority: parameter.sched_priority)
        }
    }

    /// Runs `body` on a new thread and returns what it returned.
    private func onNewThread<T>(_ body: @escaping @Sendable () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T?
        let thread = Thread {
            result = body()
            done.signal()
        }
        thread.start()
        done.wait()
        return result!
    }

    /// On a SCHED_FIFO thread the work runs at SCHED_OTHER, and the thread has its policy and
    /// priority back after.
    func testWorkOnARealTimeThreadRunsAtOrdinaryPriority() throws {
        let seen: (before: Scheduling, during: Scheduling, after: Scheduling)? = onNewThread {
            var fifo = sched_param()
            fifo.sched_priority = 10
            guard pthread_setschedparam(pthread_self(), SCHED_FIFO, &fifo) == 0 else { return nil }
            let before = Scheduling.current
            let during = BelowRealTime.run { Scheduling.current }
            return (before, during, Scheduling.current)
        }
        guard let seen else { throw XCTSkip("SCHED_FIFO is not permitted here (neither CAP_SYS_NICE nor RLIMIT_RTPRIO)") }
        XCTAssertEqual(seen.before, Scheduling(policy: SCHED_FIFO, priority: 10))
        XCTAssertEqual(seen.during.policy, SCHED_OTHER)
        XCTAssertEqual(seen.after, seen.before)
    }

    /// On an ordinary thread nothing changes.
    func testWorkOnAnOrdinaryThreadRunsAsItIs() {
        let seen = onNewThread { (Scheduling.current, BelowRealTime.run { Scheduling.current }) }
        XCTAssertEqual(seen.0.policy, SCHED_OTHER)
        XCTAssertEqual(seen.1, seen.0)
    }

    /// A rumble a game updates compiles at once; a long wave is moved below real time.
    func testOnlyALongChangingPatternCompilesLong() {
        func curve(points: Int, over seconds: Double) -> HapticPattern {
            var pattern = HapticPattern(metadata: [:])
            pattern.events = [HapticEvent(type: .hapticContinuous, time: 0, duration: seconds, parameters: [EventParameter(.hapticIntensity, 1)])]
            let step = seconds / Double(points - 1)
            pattern.parameterCurves = [ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: (0..<points).map {
                ControlPoint(time: Double($0) * step, value: Double($0 % 2))
            })]
            return pattern
        }
        XCTAssertFalse(curve(points: 2, over: 65.535).compilesLong, "a rumble")
        XCTAssertFalse(curve(points: 200, over: 0.5).compilesLong, "short")
        XCTAssertTrue(curve(points: 2_000, over: 10).compilesLong, "a 10 s wave")
    }
}
