/// One or two intervals `(start, end)` in seconds, in order: see ``ZoneSegment/monotonePieces(upTo:)``.
struct MonotonePieces: Sequence {
    let first: (Double, Double)
    let second: (Double, Double)?

    func makeIterator() -> Iterator { Iterator(pieces: self) }

    struct Iterator: IteratorProtocol {
        let pieces: MonotonePieces
        var position = 0

        mutating func next() -> (Double, Double)? {
            defer { position += 1 }
            switch position {
            case 0: return pieces.first
            case 1: return pieces.second
            default: return nil
            }
        }
    }
}
