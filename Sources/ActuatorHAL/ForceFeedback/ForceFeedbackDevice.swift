import SystemPackage

/// How a force-feedback device presents itself (`struct uinput_setup`): the name and ids SDL's and
/// Steam's controller databases match, and what it accepts.
public struct ForceFeedbackDeviceSetup: Sendable, Hashable {
    /// The device name clients see (`EVIOCGNAME`), at most 79 bytes.
    public var name: String
    /// `BUS_USB` 0x03, `BUS_BLUETOOTH` 0x05, `BUS_VIRTUAL` 0x06 (default), `BUS_HOST` 0x19.
    public var busType: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    public var capabilities: ForceFeedbackCapabilities
    /// Key codes (`BTN_*`, `KEY_*`) the device also reports, for the board's buttons; empty: none.
    public var keys: [UInt16] = []
    /// Relative axes (`REL_WHEEL`, …) the device also reports, for the board's encoders.
    public var relativeAxes: [UInt16] = []

    /// The longest name uinput takes (`UINPUT_MAX_NAME_SIZE` 80, with the NUL).
    public static let maximumNameBytes = 79
    public static let virtualBus: UInt16 = 0x06

    public init(name: String, busType: UInt16 = ForceFeedbackDeviceSetup.virtualBus, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 1, capabilities: ForceFeedbackCapabilities = .hapticboard()) {
        self.name = name
        self.busType = busType
        self.vendor = vendor
        self.product = product
        self.version = version
        self.capabilities = capabilities
    }

    /// The same device offering force feedback only: no keys or axes, for a process that reads
    /// none of the board's inputs (its keys would never press, and an effect's trigger button
    /// could never start it).
    public var forceFeedbackOnly: ForceFeedbackDeviceSetup {
        var setup = self
        setup.keys = []
        setup.relativeAxes = []
        return setup
    }
}

/// An upload a client made (`EVIOCSFF`), waiting for its answer: the effect with the slot the
/// kernel chose, and the effect it replaces, if any.
public struct ForceFeedbackUpload: Sendable, Hashable {
    /// The kernel's request id, which the answer must carry.
    public var requestID: UInt32
    public var effect: ForceFeedbackEffect
    /// The effect in that slot before, when this upload replaces one.
    public var previous: ForceFeedbackEffect?

    public init(requestID: UInt32, effect: ForceFeedbackEffect, previous: ForceFeedbackEffect?) {
        self.requestID = requestID
        self.effect = effect
        self.previous = previous
    }
}

/// An erase a client made (`EVIOCRMFF`, or its closing the device), waiting for its answer.
public struct ForceFeedbackErase: Sendable, Hashable {
    public var requestID: UInt32
    public var effectID: Int

    public init(requestID: UInt32, effectID: Int) {
        self.requestID = requestID
        self.effectID = effectID
    }
}

/// What reaches the owner of a force-feedback device. The kernel has already checked what it
/// checks (a declared type and waveform, a free or owned slot, the same type as the effect
/// replaced), and it stops an effect (a `play` with count 0) before erasing it.
public enum ForceFeedbackRequest: Sendable, Hashable {
    /// Store the effect; answer with `complete(_:result:)` at once: the client waits.
    case upload(ForceFeedbackUpload)
    /// Forget the effect; answer with `complete(_:result:)`.
    case erase(ForceFeedbackErase)
    /// `EV_FF` with the effect's id: play it `count` times, or stop it when `count` is 0.
    case play(effectID: Int, count: Int32)
    /// `EV_FF` / `FF_GAIN`: scale every effect by `gain` / 0xFFFF.
    case gain(UInt16)
    /// `EV_FF` / `FF_AUTOCENTER`.
    case autocenter(UInt16)
}

/// A force-feedback device this process provides (Linux: a uinput device with `EV_FF`): requests
/// come in, upload and erase answers go out. One thread reads and answers — the client's ioctl
/// blocks until the answer. Implementations: `UInputForceFeedbackDevice` (ActuatorHALLinux),
/// `SimulatedForceFeedbackDevice` (HardwareMocks, which also behaves as the kernel does towards
/// its clients).
public protocol ForceFeedbackDevice: AnyObject {
    /// The name and capabilities the device was created with.
    var setup: ForceFeedbackDeviceSetup { get }
    /// Where clients find it (`/dev/input/event5`), when known.
    var clientPath: String? { get }

    /// The next request, waiting at most `timeout` (nil: until one comes or `interrupt()`); nil
    /// when none came.
    /// - Throws: `ForceFeedbackError.deviceGone` once the device is gone; other errors with errno.
    func nextRequest(timeout: Duration?) throws(ForceFeedbackError) -> ForceFeedbackRequest?
    /// Answers an upload: nil stored it, an errno goes back to the client's `EVIOCSFF`.
    func complete(_ upload: ForceFeedbackUpload, result: Errno?) throws(ForceFeedbackError)
    /// Answers an erase.
    func complete(_ erase: ForceFeedbackErase, result: Errno?) throws(ForceFeedbackError)
    /// Makes a waiting `nextRequest` return nil soon; callable from any thread.
    func interrupt()
    /// Removes the device: clients get ENODEV from then on. Calling it again does nothing.
    func close()
    /// Reports input on the device (a key of `setup.keys` pressed or released, a step on one of
    /// `setup.relativeAxes`), followed by a sync.
    func emit(_ event: InputDeviceEvent) throws(ForceFeedbackError)
}

/// Input a device created by this process reports to its clients.
public enum InputDeviceEvent: Sendable, Hashable {
    /// `EV_KEY` `code` with value 1 (pressed) or 0 (released).
    case key(UInt16, pressed: Bool)
    /// `EV_REL` `axis` moved by `value` (a detent: ±1).
    case relative(UInt16, Int32)
}

extension ForceFeedbackDevice {
    /// Default for devices that only take force feedback: refuse.
    public func emit(_ event: InputDeviceEvent) throws(ForceFeedbackError) {
        throw .unsupported("\(setup.name) reports no input (\(event))")
    }
}
