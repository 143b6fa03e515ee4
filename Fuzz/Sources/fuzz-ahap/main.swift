import FuzzSupport
import HapticRuntime

/// AHAP as `play`, `inspect` and the service read it: whatever reads must write back to the same
/// pattern and compile to a program that ends stopped; whatever is refused names where.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAHAP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let content: LoadedContent
    do {
        content = try ContentLoader.parse(input.text(), format: .ahap, file: "fuzz.ahap")
    } catch {
        Invariant.locates(error, in: "fuzz.ahap")
        return 0
    }
    let written = AHAP.write(content.pattern)
    do {
        let again = try AHAP.read(text: written, file: "written.ahap")
        Invariant.require(again.pattern == content.pattern, "the written AHAP reads back differently:\n\(written)")
    } catch {
        Invariant.require(false, "the written AHAP does not read back: \(error)\n\(written)")
    }
    ProgramCheck.compiles(content.pattern, "ahap")
    return 0
}
