/// Actuators whose output the hardware can start with one bus write, so content due on all of
/// them at one instant starts on all of them together (DRV2605L chips behind one TCA9548A answer
/// the broadcast address: `DRV2605Broadcast`). Without one, commands for several actuators run
/// one after the other and the last starts some bus writes after the first.
public protocol ActuatorSynchronizer: AnyObject {
    /// The actuators it starts together, by name.
    var actuatorNames: [String] { get }
    /// Loads `effects` on each of `names` (preparing each for ROM playback), then starts them all
    /// with one write. On failure every one of them is stopped before the error is rethrown.
    func play(effects: [SequencerStep], on names: [String]) throws
    /// Sets real-time `amplitude` on each of `names` (preparing each for it), with one write when
    /// they read it alike, else one write each. On failure every one of them is stopped first.
    func setAmplitude(_ amplitude: Double, on names: [String]) throws
    /// The bus time of one start for `count` actuators: what a scheduler issues it early by.
    func startCost(effects: Int, actuators count: Int) -> Duration
}
