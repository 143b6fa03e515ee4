import ActuatorHAL

extension BoardFile {
    /// The DRV2605 configuration of actuator `index`: devicetree millivolts become volts, and every
    /// value the chip cannot take is an error located at its key (`actuators[0].vib-rated-mv`).
    func drv2605Configuration(forActuatorAt index: Int) throws(BoardFileError) -> DRV2605Configuration {
        let actuator = description.actuators[index]
        let path = BoardKeyPath().appending("actuators").appending(index)
        func key(_ name: ActuatorDescription.CodingKeys) -> BoardKeyPath { path.appending(name.stringValue) }

        let kind: ActuatorKind
        switch actuator.actuatorMode.uppercased() {
        case "LRA": kind = .lra
        case "ERM": kind = .erm
        default: throw problem(at: key(.actuatorMode), "expected LRA or ERM, not '\(actuator.actuatorMode)'")
        }
        let loop: DRV2605Loop
        switch actuator.loop?.lowercased() ?? "closed" {
        case "closed": loop = .closed
        case "open": loop = .open
        default: throw problem(at: key(.loop), "expected closed or open, not '\(actuator.loop ?? "")'")
        }
        var library: ROMLibrary?
        if let librarySel = actuator.librarySel {
            guard let value = UInt8(exactly: librarySel), let selected = ROMLibrary(rawValue: value) else {
                throw problem(at: key(.librarySel), "expected a library number 0–7, not \(librarySel)")
            }
            library = selected
        }
        let realtimeFormat = try choice(actuator.rtpFormat, default: DRV2605RealtimeFormat.signed, key(.rtpFormat))
        let inputDirection = try choice(actuator.rtpInput, default: DRV2605InputDirection.bidirectional, key(.rtpInput))
        let brakeFactor = try fieldValue(actuator.feedbackBrakeFactor, default: 3, maximum: 7, key(.feedbackBrakeFactor))
        let loopGain = try fieldValue(actuator.loopGain, default: 1, maximum: 3, key(.loopGain))

        let configuration = DRV2605Configuration(
            ratings: DRV2605Ratings(
                kind: kind,
                loop: loop,
                ratedVoltage: Double(actuator.vibRatedMillivolts ?? 0) / 1000,
                overdriveVoltage: Double(actuator.vibOverdriveMillivolts ?? 0) / 1000,
                resonantFrequency: actuator.resonantFrequencyHz
            ),
            library: library,
            brakeFactor: brakeFactor,
            loopGain: loopGain,
            realtimeFormat: realtimeFormat,
            inputDirection: inputDirection
        )
        // Check the ratings now, against the chip the board names, so a bad value points at its key.
        let variant = DRV2605Variant(compatible: actuator.compatible)
        do {
            _ = try DRV2605RegisterValues(configuration: configuration, variant: variant)
        } catch {
            throw problem(at: key(Self.key(for: error)), "\(error)")
        }
        return configuration
    }

    /// The board key a configuration error is about.
    private static func key(for error: DRV2605Error) -> ActuatorDescription.CodingKeys {
        switch error {
        case .invalidRatings(.invalidVoltage(let name, _)):
            return name == "overdrive voltage" ? .vibOverdriveMillivolts : .vibRatedMillivolts
        case .invalidRatings(.missingResonantFrequency), .invalidRatings(.invalidResonantFrequency),
             .invalidRatings(.frequencyTooHighForSampleTime):
            return .resonantFrequencyHz
        case .invalidRatings(.unsupportedKind):
            return .actuatorMode
        case .invalidRatings(.overdriveBelowRated):
            return .vibOverdriveMillivolts
        case .invalidRatings(.unidirectionalInputInOpenLoop):
            return .rtpInput
        case .unsupported, .invalidRatings(.libraryNeedsOpenLoop):
            return .librarySel
        default:
            return .compatible
        }
    }

    /// One of `Choice`'s raw values, or `defaultValue` when the key is absent.
    private func choice<Choice: RawRepresentable & CaseIterable>(
        _ value: String?, default defaultValue: Choice, _ keyPath: BoardKeyPath
    ) throws(BoardFileError) -> Choice where Choice.RawValue == String {
        guard let value else { return defaultValue }
        guard let chosen = Choice(rawValue: value.lowercased()) else {
            throw problem(at: keyPath, "expected \(Choice.allCases.map(\.rawValue).joined(separator: " or ")), not '\(value)'")
        }
        return chosen
    }

    private func fieldValue(
        _ value: Int?,
        default defaultValue: UInt8,
        maximum: UInt8,
        _ keyPath: BoardKeyPath
    ) throws(BoardFileError) -> UInt8 {
        guard let value else { return defaultValue }
        guard let byte = UInt8(exactly: value), byte <= maximum else {
            throw problem(at: keyPath, "expected 0–\(maximum), not \(value)")
        }
        return byte
    }
}

extension BoardFile {
    /// Where chip `index` sits (checked by `BoardRules` first): its bus, the switch channel in
    /// front of it, address and EN line, and the part the board names.
    func chipPlacement(ofActuatorAt index: Int) throws(BoardFileError) -> ChipPlacement {
        let actuator = description.actuators[index]
        let path = BoardKeyPath([.key("actuators"), .index(index)])
        let mux = description.muxes.firstIndex { $0.name == actuator.mux }
        guard let bus = description.buses.first(where: { $0.name == (actuator.bus ?? mux.map { description.muxes[$0].bus }) }) else {
            throw problem(at: path, "the chip's bus is not defined")
        }
        guard let address = I2CAddress(actuator.reg) else {
            throw problem(at: path.appending("reg"), "\(actuator.reg) is not a 7-bit I2C address")
        }
        var placedMux: ChipPlacement.Mux?
        if let mux {
            let entry = description.muxes[mux]
            guard let muxAddress = I2CAddress(entry.reg) else {
                throw problem(at: BoardKeyPath([.key("muxes"), .index(mux), .key("reg")]), "\(entry.reg) is not a 7-bit I2C address")
            }
            guard let channel = actuator.muxChannel else { throw problem(at: path, "a chip behind a mux needs 'mux-channel' (0...7)") }
            placedMux = ChipPlacement.Mux(name: entry.name, address: muxAddress, channel: channel)
        }
        return ChipPlacement(
            actuator: actuator.name,
            bus: ChipPlacement.Bus(name: bus.name, device: bus.device, speedHz: bus.clockFrequency),
            mux: placedMux, address: address, enableLine: actuator.enableGPIOs,
            variant: DRV2605Variant(compatible: actuator.compatible)
        )
    }
}

extension DRV2605Variant {
    /// The variant a devicetree `compatible` string names (`ti,drv2604l`); a DRV2605L otherwise.
    init(compatible: String) {
        self = Self.allCases.first { "ti,\($0.rawValue.lowercased())" == compatible.lowercased() } ?? .drv2605L
    }
}
