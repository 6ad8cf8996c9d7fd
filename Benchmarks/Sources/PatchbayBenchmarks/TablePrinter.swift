/// Prints rows of cells as a Markdown table whose columns line up in a terminal too.
struct TablePrinter {
    /// A column's heading and alignment.
    struct Column {
        enum Alignment {
            case left
            case right
        }

        var title: String
        var alignment: Alignment

        static func text(_ title: String) -> Column { Column(title: title, alignment: .left) }
        static func number(_ title: String) -> Column { Column(title: title, alignment: .right) }
    }

    var columns: [Column]

    /// Prints the header and `rows`; every row has one cell per column.
    func print(_ rows: [[String]]) {
        var widths = columns.map(\.title.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = Swift.max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return columns[index].alignment == .left ? cell + padding : padding + cell
            }
            return "| " + padded.joined(separator: " | ") + " |"
        }
        let rule = columns.indices.map { index in
            let dashes = String(repeating: "-", count: widths[index] - 1)
            return columns[index].alignment == .left ? dashes + "-" : dashes + ":"
        }
        Swift.print(line(columns.map(\.title)))
        Swift.print("| " + rule.joined(separator: " | ") + " |")
        for row in rows { Swift.print(line(row)) }
    }
}
