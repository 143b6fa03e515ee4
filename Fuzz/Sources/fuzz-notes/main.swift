import FuzzSupport
import HapticRuntime

/// Notes files (one note a line, or a JSON array) as `play` and the service read them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNotes(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    do {
        let content = try ContentLoader.parse(input.text(), format: .notes, file: "fuzz.notes")
        ProgramCheck.compiles(content.pattern, "notes")
    } catch {
        Invariant.locates(error, in: "fuzz.notes")
    }
    return 0
}
