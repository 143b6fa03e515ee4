/// DRV2605L chips behind one TCA9548A started together: each chip's sequencer (or its real-time
/// mode) is set up through its own switch channel, then every chip's channel is connected at once
/// and one write to the broadcast address 0x58 — GO, or RTP_INPUT — reaches them all in the same
/// bus transfer (TI E2E FAQ 1065455). Onsets on one deadline differ by nothing the bus adds;
/// without it each chip's write waits for the one before (a switch select and a register write).
///
/// Only parts that answer 0x58 qualify (`DRV2605Variant.Features.broadcastAddress`), and only
/// when they read an RTP byte alike; otherwise the amplitude is written chip by chip.
public final class DRV2605Broadcast: ActuatorSynchronizer {
    /// The broadcast address every DRV2605L answers beside 0x5A.
    public static let address: I2CAddress = 0x58

    /// Why actuators cannot be started together.
    public enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        case fewerThanTwo
        /// Not every chip sits on a channel of one switch.
        case notBehindOneSwitch(actuator: String)
        /// Two chips share a channel (they could not be told apart at 0x5A).
        case sharedChannel(Int)
        /// The part does not answer the broadcast address.
        case noBroadcast(actuator: String, variant: DRV2605Variant)

        public var description: String {
            switch self {
            case .fewerThanTwo: "a broadcast start needs two chips or more"
            case .notBehindOneSwitch(let name): "actuator \(name) is not behind the same TCA9548A as the others"
            case .sharedChannel(let channel): "two chips on switch channel \(channel)"
            case .noBroadcast(let name, let variant): "actuator \(name) is a \(variant), which does not answer the broadcast address 0x58"
            }
        }
    }

    /// The chips, each on its switch channel.
    public let members: [DRV2605Actuator]
    /// The switch in front of them.
    public let mux: TCA9548A
    /// Each member's switch channel select mask, by name.
    private let selectMasks: [String: UInt8]

    /// The chips of `actuators`, which must all be broadcast-capable DRV2605 parts (as identified,
    /// or as the board names them before their first wake) on distinct channels of one switch.
    public init(_ actuators: [DRV2605Actuator]) throws(Refusal) {
        guard actuators.count >= 2 else { throw .fewerThanTwo }
        var mux: TCA9548A?
        var selectMasks: [String: UInt8] = [:]
        for actuator in actuators {
            guard let channel = actuator.driver.bus as? TCA9548AChannel, mux == nil || channel.mux === mux else {
                throw .notBehindOneSwitch(actuator: actuator.name)
            }
            guard !selectMasks.values.contains(channel.selectMask) else { throw .sharedChannel(channel.index) }
            guard actuator.variant.features.broadcastAddress else { throw .noBroadcast(actuator: actuator.name, variant: actuator.variant) }
            mux = channel.mux
            selectMasks[actuator.name] = channel.selectMask
        }
        guard let mux else { throw .fewerThanTwo }
        self.mux = mux
        self.members = actuators
        self.selectMasks = selectMasks
    }

    /// Every set of `actuators` that can start together: the broadcast-capable chips behind each
    /// switch, two or more of them.
    public static func groups(of actuators: [DRV2605Actuator]) -> [DRV2605Broadcast] {
        var bySwitch: [ObjectIdentifier: [DRV2605Actuator]] = [:]
        var order: [ObjectIdentifier] = []
        for actuator in actuators where actuator.variant.features.broadcastAddress {
            guard let channel = actuator.driver.bus as? TCA9548AChannel else { continue }
            let key = ObjectIdentifier(channel.mux)
            if bySwitch[key] == nil { order.append(key) }
            bySwitch[key, default: []].append(actuator)
        }
        return order.compactMap { try? DRV2605Broadcast(bySwitch[$0] ?? []) }
    }

    public var actuatorNames: [String] { members.map(\.name) }

    public func play(effects: [SequencerStep], on names: [String]) throws {
        let sequence = try DRV2605Sequence.validated(effects)
        let chosen = try members.named(names, startedWith: "their switch's broadcast group")
        try chosen.stoppingAllOnFailure {
            for chip in chosen { try chip.load(sequence) }
            try broadcast(.go, DRV2605Field.goBit.encode(1), to: chosen)
        }
    }

    public func setAmplitude(_ amplitude: Double, on names: [String]) throws {
        let chosen = try members.named(names, startedWith: "their switch's broadcast group")
        try chosen.stoppingAllOnFailure {
            let bytes = try chosen.map { try $0.preparedRealtimeByte(for: amplitude) }
            if let byte = bytes.first, bytes.allSatisfy({ $0 == byte }) {
                try broadcast(.realtimeInput, byte, to: chosen)
            } else {
                for chip in chosen { try chip.setAmplitude(amplitude) }
            }
        }
    }

    /// Per chip a switch select and the sequencer's load (slots and the terminating slot, one
    /// write), then a select of every channel and the broadcast write.
    public func startCost(effects: Int, actuators count: Int) -> Duration {
        let select = mux.parent.wireTime(of: [.write([0])])
        let write = mux.parent.wireTime(of: DRV2605.writeOperations(.go, 1))
        let slots = [UInt8](repeating: 0, count: DRV2605Sequence.slotsLoaded(steps: effects))
        let load = mux.parent.wireTime(of: [.write([DRV2605Register.waveformSequence1.rawValue] + slots)])
        return (select + load) * count + select + write
    }

    /// One write to 0x58 with every chip's channel connected.
    private func broadcast(_ register: DRV2605Register, _ value: UInt8, to chips: [DRV2605Actuator]) throws(I2CError) {
        let mask = chips.reduce(UInt8(0)) { $0 | (selectMasks[$1.name] ?? 0) }
        try mux.withChannelsSelected(mask: mask) { parent throws(I2CError) in
            try parent.write(address: Self.address, [register.rawValue, value])
        }
    }
}
