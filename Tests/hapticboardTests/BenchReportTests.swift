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

    private func result(_ method: TimingMethod, _ microseconds: [Int], late: Int = 0, steal: Duration? = nil) -> PeriodicRunResult {
        PeriodicRunResult(
            method: method, lateness: histogram(microseconds), missing: 0, latePastOnePeriod: late, cpu: .milliseconds(30), span: .seconds(1), hostSteal: steal
        )
    }

    func testRatiosAreAgainstTheSchedulerInTheSameCondition() {
        let rows = BenchReport.latenessRows(condition: "load 2", [
            result(.deadlineScheduler, [2, 2, 2, 2]),
            result(.asyncAfter, [100, 100, 100, 100]),
        ])
        XCTAssertEqual(rows.map(\.method), ["DeadlineScheduler", "DispatchQueue.asyncAfter"])
        XCTAssertEqual(rows[0].p99RatioToScheduler, Ratio(value: 1, isLowerBound: false))
        XCTAssertEqual(rows[1].p99RatioToScheduler, Ratio(value: 50, isLowerBound: false))
        XCTAssertEqual(rows[1].maxMicroseconds, 100)
    }

    func testARatioOverAnUnresolvedDenominatorIsALowerBoundAndNoneWhenNeitherResolves() {
        let rows = BenchReport.latenessRows(condition: "idle", [
            result(.deadlineScheduler, [0, 0]),
            result(.taskSleep, [30, 30]),
        ])
        XCTAssertNil(rows[0].p99RatioToScheduler, "0 ÷ 0 is not printed as a ratio")
        XCTAssertEqual(rows[1].p99RatioToScheduler, Ratio(value: 30, isLowerBound: true))
        XCTAssertEqual(rows[1].p99RatioToScheduler?.text, "≥ 30×")
        XCTAssertEqual(Ratio.of(0.4, over: 0.4, resolution: 1), nil)
        XCTAssertEqual(Ratio.of(12, over: 4, resolution: 1)?.text, "3×")
    }

    func testTheServiceFiguresSetEachTriggerBesideTheDirectPath() {
        func row(_ method: String, _ p50: Double, _ p99: Double) -> BenchReport.OverheadRow {
            BenchReport.OverheadRow(method: method, samples: 100, p50Microseconds: p50, p99Microseconds: p99, maxMicroseconds: p99 * 2)
        }
        let figures = ServiceBench.Figures(
            socketTrigger: row("socket", 600, 900), webSocketTrigger: row("websocket", 300, 0.5),
            webSocketTriggerThroughClientLibrary: row("websocket client", 360, 480), directStart: row("direct", 120, 0.4),
            hostWakeUp: row("host", 80, 150),
            sustainedTriggers: 1_000, sustainedSeconds: 1, triggersPerSecond: 1_000, lost: 0, errors: 0,
            residentAfterFirst10kMebibytes: 60, residentAtEndMebibytes: 61, heapAfterFirst10kMebibytes: 20, heapAtEndMebibytes: 2,
            idleCPUPercent: 0.1
        )
        let lines = ServiceBench.text(figures).split(separator: "\n")
        XCTAssertTrue(lines[1].hasSuffix("p50 5×, p99 ≥ 900× the direct path"), "\(lines[1])")
        // A p99 below the resolution on both sides gives no ratio at all.
        XCTAssertTrue(lines[2].hasSuffix("p50 2.5× the direct path"), "\(lines[2])")
        XCTAssertTrue(lines[3].hasSuffix("p50 3×, p99 ≥ 480× the direct path"), "\(lines[3])")
        XCTAssertFalse(lines[4].contains("the direct path"), "the peer is not set beside itself")
        XCTAssertFalse(lines[5].contains("the direct path"), "the host's wake-up is not a trigger")
        XCTAssertTrue(lines[6].hasSuffix("p50 600.0 µs, the host's wake-up is 80.0 µs: 520.0 µs are the service's"), "\(lines[6])")
        XCTAssertTrue(lines.contains { $0.contains("60.0 MiB after the first 10,000 triggers, 61.0 MiB at the end (+1.7 %)") }, "\(lines)")

        // A run shorter than 10,000 triggers has no first reading: no growth, rather than +6,100,000 %.
        var short = figures
        short.residentAfterFirst10kMebibytes = 0
        short.heapAfterFirst10kMebibytes = 0
        let shortLines = ServiceBench.text(short).split(separator: "\n")
        XCTAssertFalse(shortLines.contains { $0.contains("after the first 10,000") }, "\(shortLines)")
        XCTAssertTrue(shortLines.contains { $0.contains("61.0 MiB, malloc heap in use 2.0 MiB at the end (no growth figure") }, "\(shortLines)")
    }

    func testFiguresCompareOursWithThePeerOfTheSameRun() throws {
        let lateness = BenchReport.latenessRows(condition: "idle", [result(.deadlineScheduler, [1_500]), result(.asyncAfter, [1_600])])
            + BenchReport.latenessRows(condition: "load 2", [
                result(.deadlineScheduler, [10]), result(.asyncAfter, [400]), result(.hostFloor, [8, 2_000]),
            ])
        let overhead = [
            BenchReport.overheadRow(WakeOverhead.Method.deadlineScheduler.rawValue, histogram([3])),
            BenchReport.overheadRow(WakeOverhead.Method.dispatchAsync.rawValue, histogram([8])),
            BenchReport.overheadRow(PlayerStartOverhead.method, histogram([12])),
        ]
        let streams = [
            BenchReport.streamRow(condition: "idle", [result(.deadlineScheduler, [1], late: 0)], count: 1_000),
            BenchReport.streamRow(condition: "idle", [result(.asyncAfter, [50], late: 20)], count: 1_000),
        ]
        let figures = BenchReport.figures(lateness: lateness, overhead: overhead, streams: streams, coldPlay: nil, sync: nil)
        let start = try XCTUnwrap(figures.first { $0.figure.hasPrefix("player.start()") })
        XCTAssertEqual(start.ratio, Ratio(value: 1.5, isLowerBound: false))
        XCTAssertEqual(start.met, true, "12 µs ≤ 20 µs and 1.5× ≤ 3×")
        let now = try XCTUnwrap(figures.first { $0.figure.hasPrefix("DeadlineScheduler.schedule") })
        XCTAssertEqual(now.met, true)
        let stream = try XCTUnwrap(figures.first { $0.figure.contains("1 kHz") })
        XCTAssertEqual(stream.met, true, "equal CPU, nothing late")
        XCTAssertEqual(streams[1].latePercent, 2)
        let loaded = try XCTUnwrap(figures.first { $0.figure.hasPrefix("lateness (load 2)") })
        XCTAssertEqual(loaded.ratio, Ratio(value: 40, isLowerBound: false))
        XCTAssertEqual(loaded.met, true)
        XCTAssertTrue(loaded.peer.contains("host p99"), loaded.peer)
    }

    func testAStreamFigureIsItsMedianRoundWithTheLateUpdatesOfAllRounds() {
        func round(cpu milliseconds: Int, late: Int, steal: Duration?) -> PeriodicRunResult {
            PeriodicRunResult(
                method: .deadlineScheduler, lateness: histogram([1]), missing: 0, latePastOnePeriod: late,
                cpu: .milliseconds(milliseconds), span: .seconds(1), hostSteal: steal
            )
        }
        let row = BenchReport.streamRow(
            condition: "idle", [round(cpu: 70, late: 1, steal: .zero), round(cpu: 40, late: 0, steal: nil), round(cpu: 50, late: 2, steal: .milliseconds(10))],
            count: 1_000
        )
        XCTAssertEqual(row.method, "DeadlineScheduler")
        XCTAssertEqual(row.roundsPercentOfOneCore.map { $0.rounded() }, [7, 4, 5])
        XCTAssertEqual(row.percentOfOneCore, 5, "the middle round, not the 7 % one a neighbour inflated")
        XCTAssertEqual(row.latePercent, 0.1, "3 of 3,000 updates")
        XCTAssertEqual(row.hostStealMilliseconds, 10)
        XCTAssertEqual(BenchReport.median([4, 1, 3, 2]), 2.5)
        XCTAssertEqual(BenchReport.median([]), 0)
    }

    func testAMaximumOverOneMillisecondFailsOnlyWhereTheHostKeptItsOwnBelow() throws {
        func loaded(hostMaximum: Int, steal: Duration = .zero) throws -> BenchReport.Figure {
            let lateness = BenchReport.latenessRows(condition: "load 2", [
                result(.deadlineScheduler, Array(repeating: 10, count: 199) + [1_500], steal: steal), result(.asyncAfter, [4_000]),
                result(.hostFloor, Array(repeating: 5, count: 199) + [hostMaximum]),
            ])
            return try XCTUnwrap(BenchReport.figures(lateness: lateness, overhead: [], streams: [], coldPlay: nil, sync: nil).first)
        }
        XCTAssertEqual(try loaded(hostMaximum: 200).met, false)
        XCTAssertEqual(try loaded(hostMaximum: 3_000).met, true, "the host's own sleeper stalled as long")
        XCTAssertEqual(try loaded(hostMaximum: 200, steal: .milliseconds(10)).met, true, "the hypervisor took the CPU during the run")
    }

    func testTextTableAlignsTextLeftAndNumbersRight() {
        let table = TextTable(header: ["method", "p99"], rows: [["a", "1.5"], ["longer", "100"]])
        XCTAssertEqual(table.lines, ["method  p99", "a       1.5", "longer  100"])
        XCTAssertEqual(BenchReport.number(0.0004), "0")
        XCTAssertEqual(BenchReport.number(12.34), "12.3")
        XCTAssertEqual(BenchReport.number(2425.4), "2425")
        XCTAssertEqual(BenchReport.number(-2.5), "-2.5")
        XCTAssertEqual(BenchReport.number(0.0125), "0.013")
    }

    func testBadOptionsAreRejected() {
        XCTAssertThrowsError(try BenchCommand.parse(["--count", "0"]))
        XCTAssertThrowsError(try BenchCommand.parse(["--period-ms", "-1"]))
        XCTAssertThrowsError(try BenchCommand.parse(["--load", "-2"]))
        XCTAssertNoThrow(try BenchCommand.parse(["--load", "2", "--count", "10", "--period-ms", "0.5", "--json"]))
    }
}
