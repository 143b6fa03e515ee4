import FuzzSupport
import HapticRuntime

/// Haptic Notation as `play` and the service read it (the standard limits bound loops and work).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNotation(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    do {
        let content = try ContentLoader.parse(input.text(), format: .notation, file: "fuzz.hnl")
        ProgramCheck.compiles(content.pattern, "notation")
    } catch {
        Invariant.locates(error, in: "fuzz.hnl")
    }
    return 0
}
