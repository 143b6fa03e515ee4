import ActuatorHAL
import SystemPackage

/// A force-feedback input device as the Linux kernel keeps it (`drivers/input/ff-core.c`) with a
/// uinput owner (`drivers/input/misc/uinput.c`): clients (`connect()`) upload, play and erase
/// effects; the owner reads requests and answers uploads and erases (`ForceFeedbackDevice`).
///
/// It checks what the kernel checks, in the kernel's order, with its errno:
/// - an upload of a type or waveform the device did not declare, or of `FF_CUSTOM` (uinput cannot
///   pass samples on): EINVAL;
/// - id −1 takes the lowest free slot, ENOSPC when every slot is held; another id must be a held
///   slot (EINVAL) of this client (EACCES) with the same type and waveform (EINVAL);
/// - a play of a slot nobody holds, or with a negative count, is dropped, as is a gain on a
///   device without `FF_GAIN`;
/// - an erase stops the effect first (the owner reads a play with count 0, then the erase);
/// - a client closing erases every effect it holds (`input_ff_flush`);
/// - an owner that does not answer within `replyTimeout` fails the client's call with ETIMEDOUT;
/// - after `close()` (the owner destroyed the device, or it was unplugged) every call fails with ENODEV.
///
/// Threads: with `serviceHook` set (single-threaded tests), each request a client makes runs the
/// hook — the owner's reading code — before the client waits for its answer, so nothing blocks.
/// Without it, the owner answers from its own thread and the client waits, as with the kernel.
public final class SimulatedForceFeedbackDevice: ForceFeedbackDevice, @unchecked Sendable {
    /// A client's open file: the simulated device as a `ForceFeedbackSink`.
    public final class Client: ForceFeedbackSink, @unchecked Sendable {
        public let device: SimulatedForceFeedbackDevice
        let number: Int
        private var isClosed = false

        init(device: SimulatedForceFeedbackDevice, number: Int) {
            self.device = device
            self.number = number
        }

        public var name: String { device.setup.name }
        public var path: String { device.clientPath ?? "sim" }
        public var capabilities: ForceFeedbackCapabilities { device.setup.capabilities }

        public func upload(_ effect: ForceFeedbackEffect) throws(ForceFeedbackError) -> Int16 {
            try requireOpen()
            return try device.upload(effect, from: number)
        }

        public func erase(effectID id: Int16) throws(ForceFeedbackError) {
            try requireOpen()
            try device.erase(Int(id), from: number)
        }

        public func play(effectID id: Int16, count: Int32) throws(ForceFeedbackError) {
            try requireOpen()
            try device.event(code: UInt16(bitPattern: id), value: count)
        }

        public func setGain(_ gain: UInt16) throws(ForceFeedbackError) {
            try requireOpen()
            try device.event(code: ForceFeedbackCode.gain, value: Int32(gain))
        }

        public func checkPresent() throws(ForceFeedbackError) {
            try requireOpen()
            if device.isGone { throw .deviceGone(device: path) }
        }

        /// Erases every effect this client holds, as the kernel does when a file closes.
        public func close() {
            guard !isClosed else { return }
            isClosed = true
            device.flush(client: number)
        }

        private func requireOpen() throws(ForceFeedbackError) {
            if isClosed { throw .request(device: path, operation: "a call after close", errno: .badFileDescriptor) }
        }
    }

    public let setup: ForceFeedbackDeviceSetup
    public let clientPath: String?
    /// The owner's reading code, run after each request in single-threaded tests.
    public var serviceHook: (() -> Void)?
    /// How long a client waits for an answer (the kernel's 30 s).
    public var replyTimeout: Duration = .seconds(30)
    private let condition = ConditionLock()
    /// Per slot, the client holding it and its effect.
    private var slots: [(client: Int, effect: ForceFeedbackEffect)?]
    private var queue: [ForceFeedbackRequest] = []
    private var answers: [UInt32: Errno?] = [:]
    private var lastRequestID: UInt32 = 0
    private var clients = 0
    private var gone = false
    private var interrupted = false
    private var delivered: [ForceFeedbackRequest] = []
    private var reported: [InputDeviceEvent] = []
    private var keptHistory: Int?

    /// When set, `deliveredRequests` and `emittedEvents` keep only about this many of the newest:
    /// a service or a fuzz run that a game drives for months stays in bounded memory. Nil (the
    /// default): everything is kept, for tests that read it all.
    public var historyLimit: Int? {
        get { condition.withLock { keptHistory } }
        set {
            condition.withLock {
                keptHistory = newValue
                delivered.keepNewest(newValue)
                reported.keepNewest(newValue)
            }
        }
    }

    /// A device created with `setup`, found by clients at `clientPath`.
    public init(setup: ForceFeedbackDeviceSetup, clientPath: String? = nil) {
        self.setup = setup
        self.clientPath = clientPath
        slots = Array(repeating: nil, count: max(0, min(setup.capabilities.effectSlots, ForceFeedbackCode.maximumEffects)))
    }

    /// Opens the device as a new client.
    public func connect() -> Client {
        let number = condition.withLock {
            clients += 1
            return clients
        }
        return Client(device: self, number: number)
    }

    /// Every request the owner has read (the newest under `historyLimit`), oldest first.
    public var deliveredRequests: [ForceFeedbackRequest] { condition.withLock { delivered } }

    /// The effect in each held slot, by slot.
    public var storedEffects: [Int: ForceFeedbackEffect] {
        condition.withLock {
            Dictionary(uniqueKeysWithValues: slots.enumerated().compactMap { index, slot in slot.map { (index, $0.effect) } })
        }
    }

    /// Whether the device is gone.
    public var isGone: Bool { condition.withLock { gone } }

    /// Every input event the owner reported (`emit`; the newest under `historyLimit`), oldest first.
    public var emittedEvents: [InputDeviceEvent] { condition.withLock { reported } }

    /// Records the event, refusing codes the device was not created with, as the kernel drops them.
    public func emit(_ event: InputDeviceEvent) throws(ForceFeedbackError) {
        condition.lock()
        defer { condition.unlock() }
        guard !gone else { throw .deviceGone(device: devicePath) }
        switch event {
        case .key(let code, _) where !setup.keys.contains(code), .relative(let code, _) where !setup.relativeAxes.contains(code):
            throw .request(device: devicePath, operation: "write \(event)", errno: .invalidArgument)
        default:
            reported.append(event)
            reported.keepNewest(keptHistory)
        }
    }

    // MARK: The owner's side

    public func nextRequest(timeout: Duration?) throws(ForceFeedbackError) -> ForceFeedbackRequest? {
        let limit = timeout.map { ConditionLock.monotonicNow + $0 }
        let outcome: Result<ForceFeedbackRequest?, ForceFeedbackError> = condition.withLock {
            while queue.isEmpty, !gone, !interrupted {
                if timeout == .zero { return .success(nil) }
                if let limit {
                    if !condition.wait(until: limit) { return .success(nil) }
                } else {
                    condition.wait()
                }
            }
            if gone { return .failure(.deviceGone(device: devicePath)) }
            if interrupted, queue.isEmpty {
                interrupted = false
                return .success(nil)
            }
            let request = queue.removeFirst()
            delivered.append(request)
            delivered.keepNewest(keptHistory)
            return .success(request)
        }
        return try outcome.get()
    }

    public func complete(_ upload: ForceFeedbackUpload, result: Errno?) throws(ForceFeedbackError) {
        try answer(upload.requestID, result)
    }

    public func complete(_ erase: ForceFeedbackErase, result: Errno?) throws(ForceFeedbackError) {
        try answer(erase.requestID, result)
    }

    public func interrupt() {
        condition.withLock {
            interrupted = true
            condition.broadcast()
        }
    }

    /// Destroys the device (the owner closed it, or it was unplugged): every client call and the
    /// owner's next read fail with ENODEV.
    public func close() {
        condition.withLock {
            gone = true
            condition.broadcast()
        }
    }

    private func answer(_ requestID: UInt32, _ result: Errno?) throws(ForceFeedbackError) {
        let isGone = condition.withLock {
            if !gone {
                answers[requestID] = .some(result)
                condition.broadcast()
            }
            return gone
        }
        if isGone { throw .deviceGone(device: devicePath) }
    }

    // MARK: The kernel's side, for clients

    private var devicePath: String { clientPath ?? "simulated '\(setup.name)'" }

    private func upload(_ effect: ForceFeedbackEffect, from client: Int) throws(ForceFeedbackError) -> Int16 {
        func refuse(_ errno: Errno) -> ForceFeedbackError { .request(device: devicePath, operation: "EVIOCSFF", errno: errno) }
        let capabilities = setup.capabilities
        guard ForceFeedbackEffectType.validCodes.contains(effect.type.rawValue), capabilities.effectTypes.contains(effect.type) else { throw refuse(.invalidArgument) }
        if let waveform = effect.waveform {
            guard ForceFeedbackWaveform.validCodes.contains(waveform.rawValue), capabilities.waveforms.contains(waveform), waveform != .custom else {
                throw refuse(.invalidArgument)
            }
        }
        let staged: Result<(UInt32, ForceFeedbackEffect), ForceFeedbackError> = condition.withLock {
            guard !gone else { return .failure(.deviceGone(device: devicePath)) }
            var effect = effect
            var previous: ForceFeedbackEffect?
            if effect.id == -1 {
                guard let free = slots.firstIndex(where: { $0 == nil }) else { return .failure(refuse(.noSpace)) }
                effect.id = Int16(free)
            } else {
                guard effect.id >= 0, Int(effect.id) < slots.count, let held = slots[Int(effect.id)] else { return .failure(refuse(.invalidArgument)) }
                guard held.client == client else { return .failure(refuse(.permissionDenied)) }
                guard held.effect.type == effect.type, held.effect.waveform == effect.waveform else { return .failure(refuse(.invalidArgument)) }
                previous = held.effect
            }
            let id = nextRequestID()
            queue.append(.upload(ForceFeedbackUpload(requestID: id, effect: effect, previous: previous)))
            condition.broadcast()
            return .success((id, effect))
        }
        let (requestID, stored) = try staged.get()
        if let result = try awaitAnswer(requestID, operation: "EVIOCSFF") { throw refuse(result) }
        condition.withLock { slots[Int(stored.id)] = (client, stored) }
        return stored.id
    }

    private func erase(_ id: Int, from client: Int?) throws(ForceFeedbackError) {
        func refuse(_ errno: Errno) -> ForceFeedbackError { .request(device: devicePath, operation: "EVIOCRMFF", errno: errno) }
        let staged: Result<(UInt32, (client: Int, effect: ForceFeedbackEffect)), ForceFeedbackError> = condition.withLock {
            guard !gone else { return .failure(.deviceGone(device: devicePath)) }
            guard id >= 0, id < slots.count, let held = slots[id] else { return .failure(refuse(.invalidArgument)) }
            if let client, held.client != client { return .failure(refuse(.permissionDenied)) }
            // ff-core stops the effect and drops its owner before asking the driver to erase it.
            queue.append(.play(effectID: id, count: 0))
            slots[id] = nil
            let requestID = nextRequestID()
            queue.append(.erase(ForceFeedbackErase(requestID: requestID, effectID: id)))
            condition.broadcast()
            return .success((requestID, held))
        }
        let (requestID, held) = try staged.get()
        if let result = try awaitAnswer(requestID, operation: "EVIOCRMFF") {
            condition.withLock { slots[id] = held }
            throw refuse(result)
        }
    }

    private func event(code: UInt16, value: Int32) throws(ForceFeedbackError) {
        let queued: Bool? = condition.withLock {
            guard !gone else { return nil }
            var request: ForceFeedbackRequest?
            if code == ForceFeedbackCode.gain {
                if setup.capabilities.supportsGain, value >= 0, value <= 0xFFFF { request = .gain(UInt16(value)) }
            } else if code == ForceFeedbackCode.autocenter {
                if setup.capabilities.supportsAutocenter, value >= 0, value <= 0xFFFF { request = .autocenter(UInt16(value)) }
            } else if value >= 0, Int(code) < slots.count, slots[Int(code)] != nil {
                request = .play(effectID: Int(code), count: value)
            }
            guard let request else { return false }
            queue.append(request)
            condition.broadcast()
            return true
        }
        guard let queued else { throw .deviceGone(device: devicePath) }
        if queued { serviceHook?() }
    }

    private func flush(client: Int) {
        let held = condition.withLock { slots.indices.filter { slots[$0]?.client == client } }
        for id in held { try? erase(id, from: client) }
    }

    private func nextRequestID() -> UInt32 {
        lastRequestID &+= 1
        return lastRequestID
    }

    /// Runs the service hook, then waits for the owner's answer; nil when it stored the request.
    private func awaitAnswer(_ requestID: UInt32, operation: String) throws(ForceFeedbackError) -> Errno? {
        serviceHook?()
        let limit = ConditionLock.monotonicNow + replyTimeout
        let outcome: Result<Errno?, ForceFeedbackError> = condition.withLock {
            while answers[requestID] == nil, !gone {
                guard condition.wait(until: limit) else { return .success(.timedOut) }
            }
            if let answer = answers.removeValue(forKey: requestID) { return .success(answer) }
            return .failure(.deviceGone(device: devicePath))
        }
        return try outcome.get()
    }
}
