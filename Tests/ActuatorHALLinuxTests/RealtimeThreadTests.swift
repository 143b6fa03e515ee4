import ActuatorHAL
@testable import ActuatorHALLinux
import SystemPackage
import XCTest

final class RealtimeThreadTests: XCTestCase {
    func testWarningNamesWhatWasRefusedAndHowToAllowIt() throws {
        var setup = RealtimeSetup(priority: 80)
        XCTAssertTrue(setup.isComplete)
        XCTAssertNil(setup.warning)
        setup.schedulingError = .notPermitted
        setup.priorityLimit = 0
        setup.memoryLockError = .noMemory
        XCTAssertFalse(setup.isComplete)
        let warning = try XCTUnwrap(setup.warning)
        XCTAssertFalse(warning.contains("\n"), "one line")
        for expected in ["SCHED_FIFO 80", "RLIMIT_RTPRIO 0", "ulimit -r 80", "LimitRTPRIO=80", "mlockall", "LimitMEMLOCK=", "CAP_SYS_NICE"] {
            XCTAssertTrue(warning.contains(expected), "\(expected) missing from: \(warning)")
        }
    }

    func testOnlyTheRefusedStepIsNamed() throws {
        var setup = RealtimeSetup(priority: 50)
        setup.memoryLockError = .notPermitted
        let warning = try XCTUnwrap(setup.warning)
        XCTAssertTrue(warning.contains("LimitMEMLOCK="))
        XCTAssertFalse(warning.contains("SCHED_FIFO"))
    }
}
