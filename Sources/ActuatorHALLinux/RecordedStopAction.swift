import ActuatorHAL
import CDrivers

/// What a recording guardian (`CrashGuardian.start(…, recordingTo:)`) reports it would have done,
/// in order: so a test forks a real guardian and checks its behaviour without hardware.
enum RecordedStopAction: Sendable, Hashable {
    /// A stop step on the bus descriptor `bus`.
    case step(bus: CInt, StopStep)
    /// Line `offset` of the GPIO chip open on `chip` driven low.
    case lineLow(chip: CInt, offset: UInt32)
    /// Line `offset` driven low through the request held on `request`.
    case heldLineLow(request: CInt, offset: UInt32)

    /// The actions in `bytes`, as the guardian wrote them (one `hb_stop_step` each); nil when they
    /// are not whole records or hold a step this type does not know.
    static func decode(_ bytes: [UInt8]) -> [RecordedStopAction]? {
        let size = MemoryLayout<hb_stop_step>.size
        guard bytes.count % size == 0 else { return nil }
        var actions: [RecordedStopAction] = []
        for start in stride(from: 0, to: bytes.count, by: size) {
            let record = bytes[start..<start + size].withUnsafeBytes { $0.loadUnaligned(as: hb_stop_step.self) }
            if UInt32(record.protocol) == HB_STOP_LINE_LOW.rawValue {
                actions.append(.lineLow(chip: record.bus_fd, offset: UInt32(record.address)))
            } else if UInt32(record.protocol) == HB_STOP_HELD_LINE_LOW.rawValue {
                actions.append(.heldLineLow(request: record.bus_fd, offset: UInt32(record.address)))
            } else if let step = StopStep(record) {
                actions.append(.step(bus: record.bus_fd, step))
            } else {
                return nil
            }
        }
        return actions
    }
}
