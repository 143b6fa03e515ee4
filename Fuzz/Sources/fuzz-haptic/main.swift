import FuzzSupport
import HapticRuntime

/// `.haptic` v1 clips as `play`, `convert` and the service read them: a clip that reads must write
/// a clip that reads again, and its pattern must compile to a program that ends stopped.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHaptic(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let content: LoadedContent
    do {
        content = try ContentLoader.parse(input.text(), format: .haptic, file: "fuzz.haptic")
    } catch {
        Invariant.locates(error, in: "fuzz.haptic")
        return 0
    }
    if let clip = content.clip {
        do {
            _ = try HapticClip.read(text: clip.text, file: "written.haptic")
        } catch {
            Invariant.require(false, "the written clip does not read back: \(error)\n\(clip.text)")
        }
    }
    ProgramCheck.compiles(content.pattern, "haptic")
    return 0
}
