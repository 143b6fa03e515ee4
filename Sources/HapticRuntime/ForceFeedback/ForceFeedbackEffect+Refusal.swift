import ActuatorHAL
import SystemPackage

extension ForceFeedbackEffect {
    /// Why a hapticboard force-feedback device refuses this effect, with the errno its uploader
    /// gets, or nil when it plays. The kernel has refused undeclared types and waveforms already;
    /// this is what a uinput owner must check itself (and repeats the kernel's checks, so the
    /// simulated and any future device are held to the same rules):
    /// - a type other than rumble, periodic, constant or ramp (`FF_SPRING`, `FF_DAMPER`, …), or a
    ///   periodic waveform other than the five (`FF_CUSTOM`): EINVAL;
    /// - a slot outside `0..<slots`: EINVAL.
    ///
    /// A trigger button the device does not have is not refused: ff-core leaves
    /// `trigger.button` to the driver and ff-memless ignores it, so every kernel rumble device
    /// takes such an effect and plays it by `EV_FF`; here too it plays by `EV_FF` only.
    ///
    /// An envelope level above 0x7FFF is not refused: the kernel's own drivers take it as 0x7FFF
    /// (ff-memless's `apply_envelope`, hid-pidff's envelope report), and clients write signed
    /// levels into it (ffcfstress sets `attack_level` to its force, negative half the time), so
    /// it plays as full level (`ForceFeedbackShape`).
    public func refusal(slots: Int) -> (errno: Errno, reason: String)? {
        guard id >= 0, Int(id) < slots else { return (.invalidArgument, "effect id \(id) is outside the device's \(slots) slots") }
        guard ForceFeedbackEffectType.played.contains(type) else {
            return (.invalidArgument, "\(type) is not played by hapticboard (only \(ForceFeedbackEffectType.played.map(\.description).joined(separator: ", ")))")
        }
        if let waveform, !ForceFeedbackWaveform.played.contains(waveform) {
            return (.invalidArgument, "\(waveform) is not played by hapticboard (only \(ForceFeedbackWaveform.played.map(\.description).joined(separator: ", ")))")
        }
        return nil
    }
}
