import ActuatorHAL
import CDrivers
import SystemPackage

/// One line held through the CDrivers GPIO shim (libgpiod 1.x or 2.x), released when this goes away.
/// The Linux output and input lines share it so the request and error mapping exist once.
final class GPIOLineRequest {
    let line: GPIOLineSpecifier
    private let handle: OpaquePointer

    /// Requests `line` as an output starting at `initialLevel`, or as a both-edges input when
    /// `initialLevel` is `nil`.
    init(_ line: GPIOLineSpecifier, outputStartingAt initialLevel: LineLevel?) throws(GPIOError) {
        let name: String?
        let offset: UInt32
        switch line {
        case .named(let lineName): (name, offset) = (lineName, 0)
        case .chipOffset(_, let lineOffset): (name, offset) = (nil, lineOffset)
        }
        var handle: OpaquePointer?
        var stage = HB_GPIO_STAGE_NONE
        let error = hb_gpio_request(
            line.chipPath, name, offset, initialLevel == nil ? 0 : 1, initialLevel?.isHigh == true ? 1 : 0, &handle, &stage
        )
        guard error == 0, let handle else {
            throw Self.requestFailure(error == 0 ? .noMemory : Errno(rawValue: error), stage: stage, line: line)
        }
        self.line = line
        self.handle = handle
    }

    /// Requests `line` as a both-edges input with `settings`; `debounceApplied` receives the
    /// debounce in microseconds the kernel applies (0 with libgpiod 1.6).
    init(_ line: GPIOLineSpecifier, input settings: InputLineSettings, debounceApplied: inout UInt32) throws(GPIOError) {
        let name: String?
        let offset: UInt32
        switch line {
        case .named(let lineName): (name, offset) = (lineName, 0)
        case .chipOffset(_, let lineOffset): (name, offset) = (nil, lineOffset)
        }
        let bias: hb_gpio_bias = switch settings.bias {
        case .asIs: HB_GPIO_BIAS_AS_IS
        case .disabled: HB_GPIO_BIAS_DISABLED
        case .pullUp: HB_GPIO_BIAS_PULL_UP
        case .pullDown: HB_GPIO_BIAS_PULL_DOWN
        }
        let microseconds = UInt32(clamping: max(settings.debounce.nanoseconds, 0) / 1_000)
        var requested = hb_gpio_input_settings(bias: bias, active_low: settings.activeLow ? 1 : 0, debounce_us: microseconds)
        var handle: OpaquePointer?
        var stage = HB_GPIO_STAGE_NONE
        var applied: CUnsignedInt = 0
        let error = hb_gpio_request_input(line.chipPath, name, offset, &requested, &handle, &stage, &applied)
        guard error == 0, let handle else {
            throw Self.requestFailure(error == 0 ? .noMemory : Errno(rawValue: error), stage: stage, line: line)
        }
        debounceApplied = applied
        self.line = line
        self.handle = handle
    }

    deinit {
        hb_gpio_release(handle)
    }

    func set(_ level: LineLevel) throws(GPIOError) {
        let error = hb_gpio_set_value(handle, level.isHigh ? 1 : 0)
        guard error == 0 else { throw .io(line: line.description, operation: "set", errno: Errno(rawValue: error)) }
    }

    func read() throws(GPIOError) -> LineLevel {
        var value: CInt = 0
        let error = hb_gpio_get_value(handle, &value)
        guard error == 0 else { throw .io(line: line.description, operation: "read", errno: Errno(rawValue: error)) }
        return LineLevel(value != 0)
    }

    /// The chip device and offset the request holds, whether the line was named or given by chip
    /// and offset.
    func location() throws(GPIOError) -> GPIOLineLocation {
        var path = [CChar](repeating: 0, count: 256)
        var offset: CUnsignedInt = 0
        let error = hb_gpio_line_location(handle, &path, path.count, &offset)
        guard error == 0 else { throw .io(line: line.description, operation: "locate", errno: Errno(rawValue: error)) }
        var descriptor: CInt = -1
        var uapiVersion: CInt = 0
        let held = hb_gpio_output_request(handle, &descriptor, &uapiVersion) == 0
        return GPIOLineLocation(
            chipPath: String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), offset: offset,
            heldRequest: held ? GPIOLineLocation.HeldRequest(descriptor: descriptor, uapiVersion: uapiVersion) : nil
        )
    }

    func waitForEdge(timeout: Duration) throws(GPIOError) -> EdgeEvent? {
        var edge = HB_GPIO_EDGE_NONE
        var timestamp: UInt64 = 0
        let error = hb_gpio_wait_edge(handle, max(timeout.nanoseconds, 0), &edge, &timestamp)
        guard error == 0 else {
            throw .io(line: line.description, operation: "wait for edge", errno: Errno(rawValue: error))
        }
        switch edge {
        case HB_GPIO_EDGE_RISING:
            return EdgeEvent(edge: .rising, timestamp: MonotonicInstant(nanoseconds: Int64(clamping: timestamp)))
        case HB_GPIO_EDGE_FALLING:
            return EdgeEvent(edge: .falling, timestamp: MonotonicInstant(nanoseconds: Int64(clamping: timestamp)))
        default:
            return nil
        }
    }

    /// The typed error for a failed request, by the step that failed: a missing chip or name is
    /// `lineNotFound`, a held line `lineBusy`, an unopenable chip `chipOpen`.
    static func requestFailure(_ errno: Errno, stage: hb_gpio_stage, line: GPIOLineSpecifier) -> GPIOError {
        if errno == .noSuchFileOrDirectory { return .lineNotFound(line.description) }
        switch stage {
        case HB_GPIO_STAGE_CHIP_OPEN:
            return .chipOpen(path: line.chipPath ?? "/dev/gpiochip*", errno: errno)
        case HB_GPIO_STAGE_REQUEST where errno == .resourceBusy:
            return .lineBusy(line.description)
        case HB_GPIO_STAGE_LOOKUP:
            return .io(line: line.description, operation: "look up", errno: errno)
        default:
            return .io(line: line.description, operation: "request", errno: errno)
        }
    }
}
