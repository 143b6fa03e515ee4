import ActuatorHAL
import ActuatorHALLinux
import FuzzSupport
import HapticRuntime

/// Haptics from sound (`SoundAnalyzer` with kissfft): any samples at any rate, with settings from
/// a preset as `convert --preset` reads it. The clip must be valid v1 (it reads back) and compile
/// to a program that ends stopped.
///
/// Input: a rate selector byte, a format byte (bit 0: 32-bit float samples, else 16-bit; bit 1:
/// a preset follows, up to a 0 byte), the preset, then the samples.
private let maximumSeconds = 10
private let rates = [1, 2, 7, 100, 1_000, 8_000, 11_025, 16_000, 22_050, 44_100, 48_000, 96_000, 192_000, 384_000]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAudioAnalysis(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let rate = input.pick(rates)
    let format = input.byte()
    var settings = SoundAnalysisSettings()
    if format & 2 != 0 {
        let preset = String(decoding: input.segment(), as: UTF8.self)
        do {
            settings = try settings.applying(preset: preset, file: "fuzz-preset.json")
        } catch {
            Invariant.locates(error, in: "fuzz-preset.json")
            return 0
        }
    }
    // At most ten seconds of sound: a unit's work grows with the clip's length, and at the lowest
    // rates a few kilobytes are a quarter of an hour (4 KB at 2 Hz compiled to a million amplitude
    // updates, past libFuzzer's 10 s under ASan); a longer clip runs no code ten seconds do not.
    let maximumSamples = rate * maximumSeconds
    var samples: [Float] = []
    while !input.isEmpty, samples.count < maximumSamples {
        samples.append(format & 1 != 0 ? input.float() : Float(input.int16()) / 32_768)
    }
    let sound = MonoSound(sampleRate: rate, samples: samples)
    let clip = SoundAnalyzer.clip(for: sound, settings: settings, source: "fuzz") { RealFFT(size: $0) }
    do {
        _ = try HapticClip.read(text: clip.text, file: "analysed.haptic")
    } catch {
        Invariant.require(false, "the analysed clip is not valid v1: \(error)\n\(clip.text)")
    }
    ProgramCheck.compiles(clip.pattern, "audio analysis")
    return 0
}
