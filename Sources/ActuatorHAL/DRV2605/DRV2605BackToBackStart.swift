/// DRV260x chips that cannot share one broadcast write — each on a bus of its own, or behind a
/// switch with parts that do not answer 0x58 — started as closely as their buses allow: every
/// chip's sequencer (or real-time mode) is set up first, then the start writes (GO, or
/// RTP_INPUT) follow back to back. Onsets on one deadline then differ by one register write per
/// chip (behind a TCA9548A, a switch select and a write), not by each chip's whole setup.
public final class DRV2605BackToBackStart: ActuatorSynchronizer {
    /// The chips, in the order their start writes go out.
    public let members: [DRV2605Actuator]

    /// `actuators` started back to back; nil for fewer than two.
    public init?(_ actuators: [DRV2605Actuator]) {
        guard actuators.count >= 2 else { return nil }
        members = actuators
    }

    /// The chips of `actuators` that none of `broadcasts` covers, started back to back when there
    /// are two or more of them.
    public static func group(of actuators: [DRV2605Actuator], besides broadcasts: [DRV2605Broadcast]) -> DRV2605BackToBackStart? {
        let covered = Set(broadcasts.flatMap(\.actuatorNames))
        return DRV2605BackToBackStart(actuators.filter { !covered.contains($0.name) })
    }

    public var actuatorNames: [String] { members.map(\.name) }

    public func play(effects: [SequencerStep], on names: [String]) throws {
        let sequence = try DRV2605Sequence.validated(effects)
        let chosen = try members.named(names, startedWith: "its back-to-back group")
        try chosen.stoppingAllOnFailure {
            for chip in chosen { try chip.load(sequence) }
            for chip in chosen { try chip.driver.go() }
        }
    }

    public func setAmplitude(_ amplitude: Double, on names: [String]) throws {
        let chosen = try members.named(names, startedWith: "its back-to-back group")
        try chosen.stoppingAllOnFailure {
            let bytes = try chosen.map { try $0.preparedRealtimeByte(for: amplitude) }
            for (chip, byte) in zip(chosen, bytes) { try chip.driver.writeRegister(.realtimeInput, byte) }
        }
    }

    /// Per chip the sequencer's load (slots and the terminating slot, one write) and its start
    /// write, at the slowest member's bus speed (a channel's wire time includes its switch select).
    public func startCost(effects: Int, actuators count: Int) -> Duration {
        let slots = DRV2605Sequence.slotsLoaded(steps: effects)
        let perChip = members.map { $0.driver.wireTime(loadingSlots: slots) + $0.driver.wireTime(writes: 1) }.max() ?? .zero
        return perChip * count
    }
}

extension [DRV2605Actuator] {
    /// The members named `names`, in that order; a name outside them is `unsupported`, saying why
    /// it cannot be started with the others (`group`).
    func named(_ names: [String], startedWith group: String) throws(ActuatorError) -> [DRV2605Actuator] {
        var chosen: [DRV2605Actuator] = []
        for name in names {
            guard let chip = first(where: { $0.name == name }) else {
                let all = map(\.name).joined(separator: ", ")
                throw .unsupported(actuator: name, operation: "starting together with \(all) (not in \(group))")
            }
            chosen.append(chip)
        }
        return chosen
    }

    /// Runs `body`; on any error stops every chip's output before rethrowing, so a start that
    /// failed half-way leaves none of them driving.
    func stoppingAllOnFailure(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            for chip in self { chip.stopAfterFailure(error) }
            throw error
        }
    }
}
