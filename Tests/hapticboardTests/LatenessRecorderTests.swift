import Foundation
import XCTest
@testable import hapticboard

/// The bench's recorder wakes its waiter once, at the last sample it waits for; no wake-up may be
/// lost by that. Nothing here asserts on how long anything took: a lost wake-up makes a wait give
/// up (30 s away) and return false.
final class LatenessRecorderTests: XCTestCase {
    func testSamplesRecordedBeforeTheWaitAreSeen() {
        let recorder = LatenessRecorder()
        for _ in 0..<3 { recorder.record(.microseconds(5)) }
        XCTAssertTrue(recorder.waitForSamples(3, giveUp: Date(timeIntervalSinceNow: 30)))
        XCTAssertEqual(recorder.snapshot.count, 3)
    }

    func testTheLastSampleFromAnotherThreadWakesTheWaiter() {
        let recorder = LatenessRecorder(lateBeyond: .milliseconds(1))
        let samples = 1_000
        Thread.detachNewThread {
            for index in 0..<samples { recorder.record(index == 0 ? .milliseconds(2) : .microseconds(index % 50)) }
        }
        XCTAssertTrue(recorder.waitForSamples(samples, giveUp: Date(timeIntervalSinceNow: 30)))
        XCTAssertEqual(recorder.lateSamples, 1)
    }

    func testWaitsOneSampleAtATimeAsTheWakeOverheadDoes() {
        let recorder = LatenessRecorder()
        let next = DispatchSemaphore(value: 0)
        let rounds = 500
        Thread.detachNewThread {
            for _ in 0..<rounds {
                next.wait()
                recorder.record(.microseconds(1))
            }
        }
        for index in 0..<rounds {
            next.signal()
            XCTAssertTrue(recorder.waitForSamples(index + 1, giveUp: Date(timeIntervalSinceNow: 30)), "sample \(index + 1)")
        }
    }

    func testAWaitForMoreSamplesThanComeGivesUp() {
        let recorder = LatenessRecorder()
        recorder.record(.microseconds(1))
        XCTAssertFalse(recorder.waitForSamples(2, giveUp: Date(timeIntervalSinceNow: 0.05)))
    }
}
