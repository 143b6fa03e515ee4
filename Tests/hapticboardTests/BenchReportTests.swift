import ArgumentParser
import HapticRuntime
import XCTest
@testable import hapticboard

/// The benchmark's arithmetic and output on known figures; the measured figures themselves are
/// never asserted on (they are wall time).
final class BenchReportTests: XCTestCase {
    private func histogram(_ microseconds: [Int]) -> LatenessHistogram {
        var histogram = LatenessHistogram()
        for value in microseconds { histogram.record(.microseconds(value)) }
        return histogram
    }

    private func result(_ method: TimingMethod, _ microseconds: [Int]) -> PeriodicRunResult {
        PeriodicRunResult(method: method, lateness: histogram(microseconds), missing: 0, cpu: .zero, span: .seconds(1), hostSteal: nil)
    }

    func testRatiosAreAgainstTheSchedulerInTheSameCondition() {
        let rows = BenchReport.latenessRows(condition: "load 2", [
            result(.deadlineScheduler, [2, 2, 2, 2]),
            result(.asyncAfter, [100, 100, 100, 100]),
        ])
        XCTAssertEqual(rows.map(\.method), ["DeadlineScheduler", "DispatchQueue.asyncAfter"])
        XCTAssertEqual(rows[0].p99RatioToScheduler, 1)
        XCTAssertEqual(rows[1].p99RatioToScheduler, 50)
        XCTAssertEqual(rows[1].maxMicroseconds, 100)
    }

    func testAZeroSchedulerP99IsFlooredAtOneMicrosecond() {
        let rows = BenchReport.latenessRows(condition: "idle", [
            result(.deadlineScheduler, [0, 0]),
            result(.taskSleep, [30, 30]),
        ])
        XCTAssertEqual(rows[1].p99RatioToScheduler, 30)
    }

    func testGoalsUseTheLastConditionAndTheWorstSchedulerMaximum() throws {
        let lateness = BenchReport.latenessRows(condition: "idle", [result(.deadlineScheduler, [1_500]), result(.asyncAfter, [1_600])])
            + BenchReport.latenessRows(condition: "load 2", [result(.deadlineScheduler, [10]), result(.asyncAfter, [400])])
        let idle = BenchReport.cpuRow(state: "idle", cpu: .microseconds(200), span: .seconds(1))
        XCTAssertEqual(idle.percentOfOneCore, 0.02, accuracy: 1e-9)
        let goals = try XCTUnwrap(BenchReport.goals(lateness: lateness, idleCPU: idle))
        XCTAssertEqual(goals.condition, "load 2")
        XCTAssertEqual(goals.asyncAfterP99OverSchedulerP99, 40)
        XCTAssertTrue(goals.p99AtLeast20TimesLower)
        XCTAssertEqual(goals.schedulerMaxMicroseconds, 1_500)
        XCTAssertFalse(goals.maxUnder1Millisecond)
        XCTAssertTrue(goals.idleCPUUnderOneTenthPercent)
    }

    func testTextTableAlignsTextLeftAndNumbersRight() {
        let table = TextTable(header: ["method", "p99"], rows: [["a", "1.5"], ["longer", "100"]])
        XCTAssertEqual(table.lines, ["method  p99", "a       1.5", "longer  100"])
        XCTAssertEqual(BenchReport.number(0.0004), "0")
        XCTAssertEqual(BenchReport.number(12.34), "12.3")
        XCTAssertEqual(BenchReport.number(2425.4), "2425")
    }

    func testBadOptionsAreRejected() {
        XCTAssertThrowsError(try BenchCommand.parse(["--count", "0"]))
        XCTAssertThrowsError(try BenchCommand.parse(["--period-ms", "-1"]))
        XCTAssertThrowsError(try BenchCommand.parse(["--load", "-2"]))
        XCTAssertNoThrow(try BenchCommand.parse(["--load", "2", "--count", "10", "--period-ms", "0.5", "--json"]))
    }
}
