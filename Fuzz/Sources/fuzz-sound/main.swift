import ActuatorHAL
import ActuatorHALLinux
import Foundation
import FuzzSupport
import HapticRuntime

/// Sound-file headers and data through libsndfile and the C shim (`sound_file.c`) as
/// `play SOUND`/`convert SOUND` decode them (mono, bounded in length) and as an AudioCustom event
/// is decoded for a sound output (every channel, resampled to the device rate).
private let path: String = {
    let folder = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
    return "\(folder)/hapticboard-fuzz-sound-\(getpid()).wav"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSound(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Written in place, not through FileManager's atomic write: its fsync took a tenth of the run.
    let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard file >= 0, write(file, data, size) == size, close(file) == 0 else {
        Invariant.require(false, "cannot write \(path): \(String(cString: strerror(errno)))")
        return 0
    }
    let url = URL(fileURLWithPath: path)
    let decoder = SoundFileDecoder()
    do {
        let sound = try SoundHaptics.decode(contentsOf: url, with: decoder)
        Invariant.require(sound.sampleRate > 0 && sound.sourceChannels > 0, "a sound of \(sound.sourceChannels) channels at \(sound.sampleRate) Hz")
        Invariant.require(sound.duration <= SoundHaptics.maximumDuration, "\(sound.duration) s decoded, over the limit")
    } catch {
        Invariant.locates(error, in: path)
    }
    do {
        let sound = try decoder.decode(contentsOf: url, sampleRate: 48_000)
        Invariant.require(sound.channels > 0 && sound.samples.count % sound.channels == 0, "\(sound.samples.count) samples in \(sound.channels) channels")
    } catch {
        Invariant.locates(error, in: path)
    }
    return 0
}
