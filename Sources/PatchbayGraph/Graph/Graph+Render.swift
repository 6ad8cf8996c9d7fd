@_spi(Shell) import PatchbayCore

extension Graph {
    /// The largest canvas `render` draws.
    static let maxCanvas = (width: 160, height: 60)

    /// `render`: every `view` patch's frame as a box on a character canvas, in creation order
    /// (later views drawn over earlier ones). Frames are in character cells; whatever lies past
    /// the canvas is clipped, so a frame may use any integers (no sum overflows, no loop runs past
    /// the canvas).
    public func render() -> [String] {
        var boxes: [(x: Int, y: Int, width: Int, height: Int, text: String)] = []
        for node in nodes.values {
            guard case .patch("view") = node.kind, let frame = node.output("frame")?.value else { continue }
            func number(_ key: String) -> Int? {
                switch frame[key] {
                case .int(let i)?: i
                case .decimal(let d)?: Int(exactly: d.rounded()) ?? nil
                default: nil
                }
            }
            guard let x = number("x"), let y = number("y"), let width = number("width"), let height = number("height"),
                width >= 2, height >= 2, x >= 0, y >= 0
            else { continue }
            let text: String = if case .string(let s)? = frame["text"] { s } else { frame["text"].map { "\($0)" } ?? "" }
            boxes.append((x, y, width, height, text))
        }
        guard !boxes.isEmpty else { return [] }
        let width = Swift.min(Self.maxCanvas.width, boxes.map { Self.clampedSum($0.x, $0.width) }.max()!)
        let height = Swift.min(Self.maxCanvas.height, boxes.map { Self.clampedSum($0.y, $0.height) }.max()!)
        var canvas = Array(repeating: Array(repeating: Character(" "), count: width), count: height)
        func put(_ x: Int, _ y: Int, _ c: Character) {
            if y >= 0, y < height, x >= 0, x < width { canvas[y][x] = c }
        }
        for box in boxes where box.x < width && box.y < height {
            // The last column and row, which may lie far past the canvas.
            let right = Self.clampedSum(box.x, box.width) - 1, bottom = Self.clampedSum(box.y, box.height) - 1
            for row in box.y...Swift.min(bottom, height - 1) {
                for column in box.x...Swift.min(right, width - 1) {
                    let edgeRow = row == box.y || row == bottom, edgeColumn = column == box.x || column == right
                    put(column, row, edgeRow && edgeColumn ? "+" : edgeRow ? "-" : edgeColumn ? "|" : " ")
                }
            }
            if box.height >= 3 {
                for (offset, character) in box.text.prefix(Swift.min(box.width - 2, width)).enumerated() {
                    put(box.x + 1 + offset, box.y + 1, character)
                }
            }
        }
        return canvas.map { String($0).replacing(/\s+$/, with: "") }
    }

    /// `a + b` for `a, b >= 0`, or `Int.max` when the sum does not fit.
    static func clampedSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }
}
