import Foundation

/// A display link (`CADisplayLink`): calls its action once per frame of the display, on the run
/// loop it is added to, until it is invalidated. Headless, a frame is 1/60 s (or
/// ``preferredFramesPerSecond``'s) of a Foundation timer; ``timestamp`` and ``targetTimestamp``
/// are seconds of the system's monotonic clock, as Core Animation's are. Like Core Animation's, the
/// link holds its target until it is invalidated.
///
/// ```swift
/// let link = DisplayLink(target: self, action: { [unowned self] in self.step($0) })
/// link.add(to: .main, forMode: .common)
/// ```
open class DisplayLink: NSObject {
    /// Held (as Core Animation holds it) until ``invalidate()``.
    private var target: AnyObject?
    private let action: (DisplayLink) -> Void
    private var timer: Timer?
    /// The frames per second asked for (0: the display's, 60 here).
    open var preferredFramesPerSecond = 0 {
        didSet { reschedule() }
    }
    /// A paused link calls nothing until it is resumed.
    open var isPaused = false
    /// When the last frame was shown, in seconds of the monotonic clock.
    open private(set) var timestamp: TimeInterval = 0
    /// When the next frame is to be shown.
    open private(set) var targetTimestamp: TimeInterval = 0
    /// The time between frames.
    open var duration: TimeInterval { 1 / Double(preferredFramesPerSecond > 0 ? preferredFramesPerSecond : 60) }
    private var runLoops: [(RunLoop, RunLoop.Mode)] = []

    public init(target: AnyObject?, action: @escaping (DisplayLink) -> Void) {
        self.target = target
        self.action = action
        super.init()
    }

    /// Starts calling the action on `runLoop` in `mode`.
    open func add(to runLoop: RunLoop, forMode mode: RunLoop.Mode) {
        runLoops.append((runLoop, mode))
        reschedule()
    }

    /// Stops calling the action, for good, and lets go of the target.
    open func invalidate() {
        timer?.invalidate()
        timer = nil
        runLoops = []
        target = nil
    }

    /// Plays one frame now (what a display's refresh does): the action, unless paused.
    open func fire() {
        let now = Self.now()
        timestamp = now
        targetTimestamp = now + duration
        guard !isPaused else { return }
        action(self)
    }

    private func reschedule() {
        timer?.invalidate()
        timer = nil
        guard !runLoops.isEmpty else { return }
        // The run loop keeps the link through its timer until the link is invalidated, as Core
        // Animation's run loop keeps a display link. (The block may run on the run loop's thread:
        // the link is handed to it as Core Animation hands it to its target, unchecked.)
        let link = Held(self)
        let timer = Timer(timeInterval: duration, repeats: true) { _ in link.value.fire() }
        for (runLoop, mode) in runLoops { runLoop.add(timer, forMode: mode) }
        self.timer = timer
    }

    /// Seconds of the system's monotonic clock (`CACurrentMediaTime()`).
    public static func now() -> TimeInterval {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9
    }
}

/// Seconds of the system's monotonic clock, as a display link's timestamps count them
/// (`CACurrentMediaTime()`).
public func CurrentMediaTime() -> TimeInterval { DisplayLink.now() }

/// A display link as its timer's block holds it, until ``DisplayLink/invalidate()``.
private final class Held: @unchecked Sendable {
    let value: DisplayLink
    init(_ value: DisplayLink) { self.value = value }
}
