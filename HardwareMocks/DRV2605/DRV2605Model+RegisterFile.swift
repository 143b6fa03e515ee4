extension DRV2605Model {
    /// Every address of the register map the model implements (0x00–0x22), for tools that mirror
    /// the model into another register file, such as the kernel lane's i2c-stub companion.
    public static let registerAddresses: ClosedRange<UInt8> = 0...UInt8(Register.fileSize - 1)
}
