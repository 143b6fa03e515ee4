import ActuatorHALLinux
import Foundation
import XCTest

final class MallocHeapTests: XCTestCase {
    func testAnOperatorsSettingInTheEnvironmentIsLeftAsItIs() {
        XCTAssertEqual(MallocHeap.limitArenas(to: 2, environment: ["MALLOC_ARENA_MAX": "8"]), .leftToEnvironment)
        XCTAssertEqual(MallocHeap.limitArenas(to: 2, environment: ["GLIBC_TUNABLES": "glibc.malloc.trim_threshold=0:glibc.malloc.arena_max=4"]), .leftToEnvironment)
    }

    func testACountBelowOneIsRefused() {
        XCTAssertEqual(MallocHeap.limitArenas(to: 0, environment: [:]), .refused(0))
        XCTAssertEqual(MallocHeap.limitArenas(to: -3, environment: [:]), .refused(-3))
    }

    /// This test process has made arenas of its own for other tests, and glibc fixes its limit
    /// once it has more than eight, so the limit is tried in a child process that runs only
    /// `testChildProcessAllocatesOnManyThreadsAtOnce`: once without it, to show that the threads
    /// do make an arena each, and once with it.
    func testNoMoreArenasThanTheLimitAreMadeWhenManyThreadsAllocateAtOnce() throws {
        let unlimited = try arenasMadeByAChild(limit: nil)
        XCTAssertGreaterThan(unlimited.after, max(unlimited.before, 2), "16 threads allocating at once made no arena without a limit: the child does not show what the limit changes")
        // Arenas made before the limit was set (XCTest's own threads) stay; no more are made.
        let limited = try arenasMadeByAChild(limit: 2)
        XCTAssertLessThanOrEqual(limited.after, max(limited.before, 2))
    }

    /// The child's part of the test above; nothing to do in the test run itself.
    func testChildProcessAllocatesOnManyThreadsAtOnce() throws {
        guard let limit = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
        let before = try XCTUnwrap(MallocHeap.arenaCount)
        if let count = Int(limit) {
            XCTAssertEqual(MallocHeap.limitArenas(to: count, environment: [:]), .applied(count))
        }
        let threads = 16
        let allAllocated = DispatchGroup()
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        for _ in 0..<threads {
            allAllocated.enter()
            finished.enter()
            let thread = Thread {
                // Held until every thread has allocated, so none hands its arena back for another to reuse.
                let block = malloc(4096)
                allAllocated.leave()
                release.wait()
                free(block)
                finished.leave()
            }
            thread.start()
        }
        allAllocated.wait()
        let count = try XCTUnwrap(MallocHeap.arenaCount)
        for _ in 0..<threads { release.signal() }
        finished.wait()
        print("\(Self.childMarker)\(before) \(count)")
    }

    private static let childVariable = "HAPTICBOARD_TEST_ARENA_LIMIT"
    private static let childMarker = "arenas made: "

    /// The arenas the child had when it started, and with its 16 threads holding their blocks.
    private func arenasMadeByAChild(limit: Int?) throws -> (before: Int, after: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["ActuatorHALLinuxTests.MallocHeapTests/testChildProcessAllocatesOnManyThreadsAtOnce"]
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "MALLOC_ARENA_MAX")
        environment.removeValue(forKey: "GLIBC_TUNABLES")
        environment[Self.childVariable] = limit.map(String.init) ?? "none"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix(Self.childMarker) }, text)
        let counts = line.dropFirst(Self.childMarker.count).split(separator: " ").compactMap { Int($0) }
        XCTAssertEqual(counts.count, 2, text)
        return (try XCTUnwrap(counts.first, text), try XCTUnwrap(counts.last, text))
    }
}
