import ActuatorHAL

/// What `hapticboard probe` prints for one chip.
struct ProbeReport: Encodable, Equatable {
    /// STATUS, decoded.
    struct StatusBits: Encodable, Equatable {
        var value: String
        var deviceID: Int
        var diagnosticResult: Bool
        var feedbackStatus: Bool
        var overTemperature: Bool
        var overCurrent: Bool
    }

    var name: String
    var bus: String
    var address: String
    var variant: String
    var deviceID: Int
    var status: StatusBits

    /// Powers the chip up (EN high, 250 µs) and reads STATUS once: its DEVICE_ID identifies the
    /// chip, and its flags are reported as read (a second read would find OVER_TEMP cleared).
    static func probe(_ chip: DRV2605Actuator) throws(DRV2605Error) -> ProbeReport {
        try chip.driver.enable()
        let variant = try chip.driver.identify()
        // The read identify made, with any flag an earlier read of this driver saw.
        let status = DRV2605Status(rawValue: (chip.driver.lastStatus?.rawValue ?? 0) | chip.driver.takeUnreportedFaults().rawValue)
        return ProbeReport(
            name: chip.name,
            bus: chip.driver.bus.name,
            address: chip.driver.address.description,
            variant: variant.rawValue,
            deviceID: Int(status.deviceID),
            status: StatusBits(
                value: hexByte(status.rawValue),
                deviceID: Int(status.deviceID),
                diagnosticResult: status.diagnosticFailed,
                feedbackStatus: status.feedbackStatus,
                overTemperature: status.overTemperature,
                overCurrent: status.overCurrent
            )
        )
    }

    var text: String {
        let flags = [
            ("DIAG_RESULT", status.diagnosticResult), ("FB_STS", status.feedbackStatus),
            ("OVER_TEMP", status.overTemperature), ("OC_DETECT", status.overCurrent),
        ].map { "\($0.0)=\($0.1 ? 1 : 0)" }.joined(separator: " ")
        return "\(name): \(variant) (DEVICE_ID \(deviceID)) at \(address) on \(bus); STATUS \(status.value): \(flags)"
    }
}

/// What `hapticboard registers` prints for one chip.
struct RegisterReport: Encodable, Equatable {
    struct Register: Encodable, Equatable {
        var name: String
        var address: String
        var value: String
        var fields: [Field]
    }

    struct Field: Encodable, Equatable {
        var name: String
        var value: Int
    }

    var name: String
    var bus: String
    var address: String
    var variant: String
    var registers: [Register]

    /// Powers the chip up, identifies it and reads every register.
    static func read(_ chip: DRV2605Actuator) throws(DRV2605Error) -> RegisterReport {
        try chip.driver.enable()
        let variant = try chip.driver.identify()
        let dump = try chip.driver.dumpRegisters()
        return RegisterReport(
            name: chip.name,
            bus: chip.driver.bus.name,
            address: chip.driver.address.description,
            variant: variant.rawValue,
            registers: dump.entries.map { entry in
                Register(
                    name: entry.name,
                    address: hexByte(entry.address),
                    value: hexByte(entry.value),
                    fields: entry.fields.map { Field(name: $0.name, value: Int($0.value)) }
                )
            }
        )
    }

    var text: String {
        var lines = ["\(name): \(variant) at \(address) on \(bus)"]
        for register in registers {
            let padded = register.name.padding(toLength: 17, withPad: " ", startingAt: 0)
            let fields = register.fields.count == 1 && register.fields[0].name == register.name
                ? ""
                : "  " + register.fields.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            lines.append("  \(register.address) \(padded) \(register.value)\(fields)")
        }
        return lines.joined(separator: "\n")
    }
}
