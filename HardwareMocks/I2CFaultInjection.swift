import ActuatorHAL

/// The faults a `SimulatedI2CBus` has been told to produce, and the rule for which transfer gets
/// which: kept apart from the bus's routing so each can be read on its own.
struct I2CFaultInjection {
    /// An error planned for a run of transfers, counted by the bus's transfer number.
    struct PlannedError {
        var error: I2CError
        var transfers: Range<Int>
    }

    var silentAddresses: Set<I2CAddress> = []
    var plannedErrors: [PlannedError] = []
    var isStuck = false

    /// The fault transfer number `transfer` meets at `address`, if any; a stuck bus comes first
    /// (nothing gets through), then a planned error, then a silenced address.
    func fault(forTransfer transfer: Int, to address: I2CAddress, bus: String) -> I2CError? {
        if isStuck { return .timeout(bus: bus, address: address) }
        if let planned = plannedErrors.first(where: { $0.transfers.contains(transfer) }) { return planned.error }
        if silentAddresses.contains(address) { return .noAcknowledge(bus: bus, address: address) }
        return nil
    }
}
