extension HapticPattern {
    /// The pattern within the limits Apple's tools hold AHAP to, for writing: HapticContinuous
    /// events longer than 30 s split (see `HapticEvent.splitAtContinuousLimit()`) and parameter
    /// curves of more than 16 control points written as consecutive curves of at most 16, each
    /// starting on the previous one's last point (see `HapticClip.controlPointsPerCurve`). It
    /// plays the same as the pattern itself.
    public func fittedToCoreHapticsLimits() -> HapticPattern {
        var fitted = self
        fitted.events = events.flatMap { $0.splitAtContinuousLimit() }.sortedByTimeKeepingOrder(\.time)
        fitted.parameterCurves = parameterCurves.flatMap { curve -> [ParameterCurve] in
            guard curve.controlPoints.count > HapticClip.controlPointsPerCurve else { return [curve] }
            let points = curve.controlPoints.sorted { $0.time < $1.time }.map { ControlPoint(time: curve.time + $0.time, value: $0.value) }
            return HapticClip.curves(curve.id, through: points)
        }
        return fitted
    }
}
