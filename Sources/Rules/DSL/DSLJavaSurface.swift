/// The JDK 17 classes the Rules DSL reaches, and **the one table** of their public members the twin does not
/// run, each with its reason. `Tests/RulesTests/JavaSurface/*.txt` list every public member (made by
/// `javap -public`, see `make-lists.sh` there); a test checks that each is either in ``DSLLibrary`` or here,
/// so the unsupported tail cannot grow back silently. The checker's `rules.dslUnsupported` quotes the reason.
enum DSLJavaSurface {
    /// A JDK class: the receiver kinds its instance methods run on, and the name its static members and
    /// constructors are written with.
    struct JavaClass: Sendable {
        let receivers: [DSLReceiver]
        let staticType: String
    }

    /// Every class whose member list the test compares (by simple name, as the list files are named).
    static let classes: [String: JavaClass] = [
        "String": JavaClass(receivers: [.string], staticType: "String"),
        "Math": JavaClass(receivers: [], staticType: "Math"),
        "Integer": JavaClass(receivers: [.number], staticType: "Integer"),
        "Long": JavaClass(receivers: [.number], staticType: "Long"),
        "Double": JavaClass(receivers: [.number], staticType: "Double"),
        "Float": JavaClass(receivers: [.number], staticType: "Float"),
        "Boolean": JavaClass(receivers: [.any], staticType: "Boolean"),
        "Character": JavaClass(receivers: [.any], staticType: "Character"),
        "ZonedDateTime": JavaClass(receivers: [.instant], staticType: "ZonedDateTime"),
        "LocalDateTime": JavaClass(receivers: [.localDateTime], staticType: "LocalDateTime"),
        "LocalDate": JavaClass(receivers: [.localDate], staticType: "LocalDate"),
        "LocalTime": JavaClass(receivers: [.localTime], staticType: "LocalTime"),
        "Instant": JavaClass(receivers: [.instant], staticType: "Instant"),
        "Duration": JavaClass(receivers: [.duration], staticType: "Duration"),
        "Period": JavaClass(receivers: [], staticType: "Period"),
        "ChronoUnit": JavaClass(receivers: [.constant], staticType: "ChronoUnit"),
        "DayOfWeek": JavaClass(receivers: [.dayOfWeek], staticType: "DayOfWeek"),
        "Month": JavaClass(receivers: [.constant], staticType: "Month"),
        "ZoneId": JavaClass(receivers: [.constant], staticType: "ZoneId"),
        "DateTimeFormatter": JavaClass(receivers: [.formatter], staticType: "DateTimeFormatter"),
        "List": JavaClass(receivers: [.list], staticType: "List"),
        "ArrayList": JavaClass(receivers: [.list], staticType: "ArrayList"),
        "Map": JavaClass(receivers: [.map], staticType: "Map"),
        "HashMap": JavaClass(receivers: [.map], staticType: "HashMap"),
        "Set": JavaClass(receivers: [.list], staticType: "Set"),
        "HashSet": JavaClass(receivers: [.list], staticType: "HashSet"),
        "Random": JavaClass(receivers: [.random], staticType: "Random"),
        "UUID": JavaClass(receivers: [.constant], staticType: "UUID"),
        "URLEncoder": JavaClass(receivers: [], staticType: "URLEncoder"),
        "URLDecoder": JavaClass(receivers: [], staticType: "URLDecoder"),
    ]

    /// `Class.member` (`static ` before a static member, `new` for a constructor) → why the twin does not run it.
    static let refused: [String: String] = {
        var table: [String: String] = [:]
        for (reason, members) in refusals {
            for member in members where table[member] == nil { table[member] = reason }
        }
        return table
    }()

    /// The reason `Type::member` (a static member) is not run, if the table has one.
    static func reason(static type: String, _ member: String) -> String? {
        refused["\(type).static \(member)"]
    }

    /// The reason a method called `name` is not run, for the first class that has it refused (the checker does
    /// not know a receiver's class; the message names the class).
    static func reason(method name: String) -> String? {
        refusedMethods[name]
    }

    private static let refusedMethods: [String: String] = {
        var table: [String: String] = [:]
        for (key, reason) in refused.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, !parts[1].hasPrefix("static "), parts[1] != "new" else { continue }
            let name = String(parts[1])
            if table[name] == nil { table[name] = "\(parts[0]).\(name): \(reason)" }
        }
        return table
    }()

    // Reasons, with the members they hold.
    static let reflection = "reflection and class metadata, which a rule in the twin has no use for"
    static let locale = "it needs a Locale or a Charset the twin does not model (the twin formats in English and UTF-8)"
    static let streams = "it gives or takes a Java Stream, Spliterator, Iterator or functional interface the Rules DSL does not make (use Xbase's forEach/filter/map)"
    static let unicode = "UTF-16 code units and code points are not how the twin keeps text (it keeps Unicode characters)"
    static let bits = "bit-level and unsigned integer arithmetic on Java's fixed-width types the twin does not keep apart (int and long are one 64-bit kind)"
    static let floatKind = "the twin has no float kind (a float prints differently from a double)"
    static let zones = "the twin keeps every ZonedDateTime in the scenario's one zone: other zones, offsets and zone rules are not modeled"
    static let nanos = "the twin's clock keeps milliseconds; nanosecond fields and arithmetic would not be what Java gives"
    static let temporalSPI = "java.time's generic Temporal/TemporalAccessor/TemporalQuery interfaces, which rules reach through the concrete methods instead"
    static let period = "java.time.Period is not run by the twin yet (use Duration, or plusMonths/plusDays)"
    static let parsing = "parsing with a DateTimeFormatter or a ParsePosition is not run (ZonedDateTime.parse, LocalDate.parse and LocalTime.parse read ISO text)"
    static let formatterConfig = "configuring a DateTimeFormatter (chronology, resolver, decimal style) is not modeled: the twin formats with a pattern or a predefined formatter"
    static let arrays = "Java arrays and array copies, which the Rules DSL does not make"
    static let mutatesShared = "it mutates a shared or internal JDK object (the string pool, capacity, a clone) the twin does not model"
    static let rareMath = "not run by the twin yet (rare in rules); Math's exact, fused and IEEE helpers would need Java's StrictMath to give its bits"
    static let rareText = "not run by the twin yet (rare in rules)"
    static let collections = "not run by the twin yet: the twin's lists, sets and maps run Xbase's extensions and the common java.util methods"
    static let gaussian = "Random.nextGaussian needs Java's StrictMath.log bit for bit (fdlibm); the twin's log can differ in the last digit, so it is not run"
    static let randomStreams = "Java 17's RandomGenerator algorithms and streams are not run; nextInt, nextLong, nextDouble, nextBoolean, nextGaussian and setSeed are"
    static let uuidBits = "a UUID's bit fields, name-based (MD5) UUIDs and comparison are not run (rules print a UUID)"
    static let character = "the twin has no char kind: a text's characters are Strings of one character (use String's methods)"
    static let systemProperty = "it reads a Java system property, which the twin does not have"
    static let extremes = "the twin's dates run from year 1 to 9999 on the scenario's clock; Java's MIN, MAX and EPOCH constants are not kept"
    static let nanoseconds = "LocalTime.MAX is 23:59:59.999999999; the twin's times keep milliseconds, so it would print and compare as 23:59:59.999"
    static let duration = "not run by the twin yet: Duration runs ofMillis/ofSeconds/ofMinutes/ofHours/ofDays, between, ZERO, toMillis, toSeconds, toMinutes, toHours, toDays, plus, isNegative and isZero"

    private static let refusals: [(String, [String])] = [
        (gaussian, ["Random.nextGaussian"]),
        (reflection, ["String.describeConstable", "String.resolveConstantDesc", "Integer.describeConstable", "Integer.resolveConstantDesc",
                      "Long.describeConstable", "Long.resolveConstantDesc", "Double.describeConstable", "Double.resolveConstantDesc",
                      "Float.describeConstable", "Float.resolveConstantDesc", "Boolean.describeConstable", "Character.describeConstable",
                      "ChronoUnit.static valueOf", "ChronoUnit.static values", "Month.static values", "DayOfWeek.static values",
                      "Integer.static TYPE",
                      "Long.static TYPE", "Double.static TYPE", "Float.static TYPE", "Boolean.static TYPE", "Character.static TYPE",
                      "String.static CASE_INSENSITIVE_ORDER", "Integer.static SIZE", "Integer.static BYTES", "Long.static SIZE", "Long.static BYTES",
                      "Double.static SIZE", "Double.static BYTES", "Float.static SIZE", "Float.static BYTES", "Character.static SIZE", "Character.static BYTES"]),
        (arrays, [
            "ArrayList.toArray", "HashSet.toArray", "List.toArray", "Random.nextBytes", "Set.toArray", "String.getChars",
            "String.static copyValueOf",
        ]),
        (bits, [
            "Double.byteValue", "Double.shortValue", "Double.static doubleToLongBits", "Double.static doubleToRawLongBits",
            "Double.static longBitsToDouble", "Double.static toHexString", "Integer.byteValue", "Integer.shortValue",
            "Integer.static bitCount", "Integer.static compareUnsigned", "Integer.static divideUnsigned", "Integer.static highestOneBit",
            "Integer.static lowestOneBit", "Integer.static numberOfLeadingZeros", "Integer.static numberOfTrailingZeros",
            "Integer.static parseUnsignedInt", "Integer.static remainderUnsigned", "Integer.static reverse", "Integer.static reverseBytes",
            "Integer.static rotateLeft", "Integer.static rotateRight", "Integer.static toBinaryString", "Integer.static toHexString",
            "Integer.static toOctalString", "Integer.static toUnsignedLong", "Integer.static toUnsignedString", "Long.byteValue",
            "Long.shortValue", "Long.static bitCount", "Long.static compareUnsigned", "Long.static divideUnsigned",
            "Long.static highestOneBit", "Long.static lowestOneBit", "Long.static numberOfLeadingZeros",
            "Long.static numberOfTrailingZeros", "Long.static parseUnsignedLong", "Long.static remainderUnsigned", "Long.static reverse",
            "Long.static reverseBytes", "Long.static rotateLeft", "Long.static rotateRight", "Long.static toBinaryString",
            "Long.static toHexString", "Long.static toOctalString", "Long.static toUnsignedString", "UUID.getLeastSignificantBits",
            "UUID.getMostSignificantBits",
        ]),
        (character, [
            "Character.charValue", "Character.new", "Character.static COMBINING_SPACING_MARK", "Character.static CONNECTOR_PUNCTUATION",
            "Character.static CONTROL", "Character.static CURRENCY_SYMBOL", "Character.static DASH_PUNCTUATION",
            "Character.static DECIMAL_DIGIT_NUMBER", "Character.static DIRECTIONALITY_ARABIC_NUMBER",
            "Character.static DIRECTIONALITY_BOUNDARY_NEUTRAL", "Character.static DIRECTIONALITY_COMMON_NUMBER_SEPARATOR",
            "Character.static DIRECTIONALITY_EUROPEAN_NUMBER", "Character.static DIRECTIONALITY_EUROPEAN_NUMBER_SEPARATOR",
            "Character.static DIRECTIONALITY_EUROPEAN_NUMBER_TERMINATOR", "Character.static DIRECTIONALITY_FIRST_STRONG_ISOLATE",
            "Character.static DIRECTIONALITY_LEFT_TO_RIGHT", "Character.static DIRECTIONALITY_LEFT_TO_RIGHT_EMBEDDING",
            "Character.static DIRECTIONALITY_LEFT_TO_RIGHT_ISOLATE", "Character.static DIRECTIONALITY_LEFT_TO_RIGHT_OVERRIDE",
            "Character.static DIRECTIONALITY_NONSPACING_MARK", "Character.static DIRECTIONALITY_OTHER_NEUTRALS",
            "Character.static DIRECTIONALITY_PARAGRAPH_SEPARATOR", "Character.static DIRECTIONALITY_POP_DIRECTIONAL_FORMAT",
            "Character.static DIRECTIONALITY_POP_DIRECTIONAL_ISOLATE", "Character.static DIRECTIONALITY_RIGHT_TO_LEFT",
            "Character.static DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC", "Character.static DIRECTIONALITY_RIGHT_TO_LEFT_EMBEDDING",
            "Character.static DIRECTIONALITY_RIGHT_TO_LEFT_ISOLATE", "Character.static DIRECTIONALITY_RIGHT_TO_LEFT_OVERRIDE",
            "Character.static DIRECTIONALITY_SEGMENT_SEPARATOR", "Character.static DIRECTIONALITY_UNDEFINED",
            "Character.static DIRECTIONALITY_WHITESPACE", "Character.static ENCLOSING_MARK", "Character.static END_PUNCTUATION",
            "Character.static FINAL_QUOTE_PUNCTUATION", "Character.static FORMAT", "Character.static INITIAL_QUOTE_PUNCTUATION",
            "Character.static LETTER_NUMBER", "Character.static LINE_SEPARATOR", "Character.static LOWERCASE_LETTER",
            "Character.static MATH_SYMBOL", "Character.static MAX_CODE_POINT", "Character.static MAX_HIGH_SURROGATE",
            "Character.static MAX_LOW_SURROGATE", "Character.static MAX_RADIX", "Character.static MAX_SURROGATE",
            "Character.static MAX_VALUE", "Character.static MIN_CODE_POINT", "Character.static MIN_HIGH_SURROGATE",
            "Character.static MIN_LOW_SURROGATE", "Character.static MIN_RADIX", "Character.static MIN_SUPPLEMENTARY_CODE_POINT",
            "Character.static MIN_SURROGATE", "Character.static MIN_VALUE", "Character.static MODIFIER_LETTER",
            "Character.static MODIFIER_SYMBOL", "Character.static NON_SPACING_MARK", "Character.static OTHER_LETTER",
            "Character.static OTHER_NUMBER", "Character.static OTHER_PUNCTUATION", "Character.static OTHER_SYMBOL",
            "Character.static PARAGRAPH_SEPARATOR", "Character.static PRIVATE_USE", "Character.static SPACE_SEPARATOR",
            "Character.static START_PUNCTUATION", "Character.static SURROGATE", "Character.static TITLECASE_LETTER",
            "Character.static UNASSIGNED", "Character.static UPPERCASE_LETTER", "Character.static charCount",
            "Character.static codePointAt", "Character.static codePointBefore", "Character.static codePointCount",
            "Character.static codePointOf", "Character.static compare", "Character.static digit", "Character.static forDigit",
            "Character.static getDirectionality", "Character.static getName", "Character.static getNumericValue",
            "Character.static getType", "Character.static hashCode", "Character.static highSurrogate", "Character.static isAlphabetic",
            "Character.static isBmpCodePoint", "Character.static isDefined", "Character.static isDigit", "Character.static isHighSurrogate",
            "Character.static isISOControl", "Character.static isIdentifierIgnorable", "Character.static isIdeographic",
            "Character.static isJavaIdentifierPart", "Character.static isJavaIdentifierStart", "Character.static isJavaLetter",
            "Character.static isJavaLetterOrDigit", "Character.static isLetter", "Character.static isLetterOrDigit",
            "Character.static isLowSurrogate", "Character.static isLowerCase", "Character.static isMirrored", "Character.static isSpace",
            "Character.static isSpaceChar", "Character.static isSupplementaryCodePoint", "Character.static isSurrogate",
            "Character.static isSurrogatePair", "Character.static isTitleCase", "Character.static isUnicodeIdentifierPart",
            "Character.static isUnicodeIdentifierStart", "Character.static isUpperCase", "Character.static isValidCodePoint",
            "Character.static isWhitespace", "Character.static lowSurrogate", "Character.static offsetByCodePoints",
            "Character.static reverseBytes", "Character.static toChars", "Character.static toCodePoint", "Character.static toLowerCase",
            "Character.static toString", "Character.static toTitleCase", "Character.static toUpperCase", "Character.static valueOf",
        ]),
        (collections, [
           
            "List.static copyOf", "List.static of",
            "Map.static copyOf", "Map.static entry", "Map.static of", "Map.static ofEntries",
            "Set.static copyOf", "Set.static of",
        ]),
        (duration, [
            "Duration.static of",
            "Duration.truncatedTo", "Duration.withSeconds",
        ]),
        (extremes, [
            "Instant.static EPOCH", "Instant.static MAX", "Instant.static MIN", "LocalDate.static EPOCH", "LocalDate.static MAX",
            "LocalDate.static MIN", "LocalDateTime.static MAX", "LocalDateTime.static MIN",
        ]),
        (nanoseconds, ["LocalTime.static MAX"]),
        (floatKind, [
            "Float.byteValue", "Float.new", "Float.shortValue", "Float.static MAX_EXPONENT",
            "Float.static MAX_VALUE", "Float.static MIN_EXPONENT", "Float.static MIN_NORMAL", "Float.static MIN_VALUE",
            "Float.static NEGATIVE_INFINITY", "Float.static NaN", "Float.static POSITIVE_INFINITY", "Float.static compare",
            "Float.static floatToIntBits", "Float.static floatToRawIntBits", "Float.static hashCode", "Float.static intBitsToFloat",
            "Float.static isFinite", "Float.static isInfinite", "Float.static isNaN", "Float.static max", "Float.static min",
            "Float.static sum", "Float.static toHexString", "Float.static toString", "Random.nextFloat",
        ]),
        (formatterConfig, [
            "DateTimeFormatter.formatTo", "DateTimeFormatter.getDecimalStyle", "DateTimeFormatter.getResolverFields",
            "DateTimeFormatter.getResolverStyle", "DateTimeFormatter.getZone", "DateTimeFormatter.static parsedExcessDays",
            "DateTimeFormatter.static parsedLeapSecond", "DateTimeFormatter.toFormat", "DateTimeFormatter.withChronology",
            "DateTimeFormatter.withDecimalStyle", "DateTimeFormatter.withResolverFields", "DateTimeFormatter.withResolverStyle",
            "DateTimeFormatter.withZone",
        ]),
        (locale, [
            "DateTimeFormatter.getLocale", "DateTimeFormatter.localizedBy", "DateTimeFormatter.static ofLocalizedDate",
            "DateTimeFormatter.static ofLocalizedDateTime", "DateTimeFormatter.static ofLocalizedTime", "DateTimeFormatter.withLocale",
            "String.getBytes",
        ]),
        (mutatesShared, [
            "ArrayList.clone", "ArrayList.ensureCapacity", "ArrayList.trimToSize", "HashMap.clone", "HashSet.clone", "String.intern",
        ]),
        (nanos, [
            "Duration.getNano", "Duration.minusNanos", "Duration.plusNanos", "Duration.static ofNanos", "Duration.toNanos",
            "Duration.toNanosPart", "Duration.withNanos", "Instant.minusNanos", "LocalDateTime.minusNanos", "LocalTime.minusNanos",
            "LocalTime.plusNanos", "LocalTime.static ofNanoOfDay", "LocalTime.withNano", "ZonedDateTime.minusNanos",
        ]),
        (parsing, [
            "DateTimeFormatter.parse", "DateTimeFormatter.parseBest", "DateTimeFormatter.parseUnresolved", "Duration.static parse",
            "Instant.static parse",
        ]),
        (period, [
            "Period.addTo", "Period.get", "Period.getChronology", "Period.getDays", "Period.getMonths", "Period.getUnits",
            "Period.getYears", "Period.isNegative", "Period.isZero", "Period.minus", "Period.minusDays", "Period.minusMonths",
            "Period.minusYears", "Period.multipliedBy", "Period.negated", "Period.normalized", "Period.plus", "Period.plusDays",
            "Period.plusMonths", "Period.plusYears", "Period.static ZERO", "Period.static between", "Period.static from",
            "Period.static of", "Period.static ofDays", "Period.static ofMonths", "Period.static ofWeeks", "Period.static ofYears",
            "Period.static parse", "Period.subtractFrom", "Period.toTotalMonths", "Period.withDays", "Period.withMonths",
            "Period.withYears",
        ]),
        (rareMath, [
            "Math.static IEEEremainder", "Math.static absExact", "Math.static addExact",
            "Math.static copySign", "Math.static cosh",
            "Math.static decrementExact", "Math.static expm1", "Math.static fma",
            "Math.static getExponent", "Math.static incrementExact", "Math.static log1p", "Math.static multiplyExact",
            "Math.static multiplyFull", "Math.static multiplyHigh", "Math.static negateExact", "Math.static nextAfter",
            "Math.static nextDown", "Math.static nextUp", "Math.static rint", "Math.static scalb", "Math.static sinh",
            "Math.static subtractExact", "Math.static tanh", "Math.static toIntExact",
            "Math.static ulp",
        ]),
        (rareText, [
            "Boolean.static compare", "Boolean.static hashCode", "Boolean.static logicalAnd", "Boolean.static logicalOr",
            "Boolean.static logicalXor", "Boolean.static toString",
            "Double.static MAX_EXPONENT", "Double.static MIN_EXPONENT",
            "Double.static hashCode",
            "Integer.static decode",
            "Integer.static hashCode", "Integer.static signum",
            "LocalDate.minus", "LocalDate.plus", "LocalDate.static ofEpochDay", "LocalDate.static ofYearDay",
            "LocalDate.withDayOfYear", "LocalTime.minus", "LocalTime.plus", "LocalTime.static ofSecondOfDay",
            "Long.static decode", "Long.static hashCode", "Long.static signum",
            "Month.firstDayOfYear", "Month.firstMonthOfQuarter", "Month.maxLength",
            "Month.minLength", "String.indent", "String.regionMatches", "String.stripIndent",
            "String.translateEscapes",
        ]),
        (streams, [
            "ArrayList.iterator", "ArrayList.listIterator", "ArrayList.removeIf", "ArrayList.replaceAll", "ArrayList.spliterator",
            "HashMap.compute", "HashMap.computeIfAbsent", "HashMap.computeIfPresent", "HashMap.merge", "HashMap.replaceAll",
            "HashSet.iterator", "HashSet.spliterator", "List.iterator", "List.listIterator", "List.replaceAll", "List.spliterator",
            "LocalDate.datesUntil", "Map.compute", "Map.computeIfAbsent", "Map.computeIfPresent", "Map.merge", "Map.replaceAll",
            "Random.doubles", "Random.ints", "Random.longs", "Set.iterator", "Set.spliterator", "String.chars", "String.codePoints",
            "String.lines", "String.transform",
        ]),
        (systemProperty, ["Boolean.static getBoolean", "Integer.static getInteger", "Long.static getLong"]),
        (temporalSPI, [
            "ChronoUnit.addTo", "ChronoUnit.isDurationEstimated", "ChronoUnit.isSupportedBy", "DateTimeFormatter.getChronology",
            "DayOfWeek.adjustInto", "DayOfWeek.get", "DayOfWeek.getLong", "DayOfWeek.isSupported", "DayOfWeek.query", "DayOfWeek.range",
            "DayOfWeek.static from", "Duration.addTo", "Duration.get", "Duration.getUnits", "Duration.static from", "Duration.subtractFrom",
            "Instant.adjustInto", "Instant.isSupported", "Instant.query", "Instant.range", "Instant.static from", "LocalDate.adjustInto",
            "LocalDate.getChronology", "LocalDate.getEra", "LocalDate.getLong", "LocalDate.isSupported", "LocalDate.query",
            "LocalDate.range", "LocalDate.static from", "LocalDateTime.adjustInto", "LocalDateTime.isSupported", "LocalDateTime.query",
            "LocalDateTime.range", "LocalDateTime.static from", "LocalTime.adjustInto", "LocalTime.getLong", "LocalTime.isSupported",
            "LocalTime.query", "LocalTime.range", "LocalTime.static from", "Month.adjustInto", "Month.get", "Month.getLong",
            "Month.isSupported", "Month.query", "Month.range", "Month.static from", "ZoneId.static from", "ZonedDateTime.isSupported",
            "ZonedDateTime.query", "ZonedDateTime.range", "ZonedDateTime.static from",
        ]),
        (unicode, [
            "String.codePointAt", "String.codePointBefore", "String.codePointCount", "String.offsetByCodePoints", "String.subSequence",
        ]),
        (uuidBits, [
            "UUID.clockSequence", "UUID.new", "UUID.node", "UUID.static nameUUIDFromBytes", "UUID.timestamp", "UUID.variant",
            "UUID.version",
        ]),
        (zones, [
            "Instant.atOffset", "LocalDate.static ofInstant", "LocalDate.toEpochSecond", "LocalDateTime.atOffset",
            "LocalDateTime.static ofEpochSecond", "LocalTime.atOffset", "LocalTime.static ofInstant", "LocalTime.toEpochSecond",
            "ZoneId.getRules", "ZoneId.normalized", "ZoneId.static SHORT_IDS", "ZoneId.static getAvailableZoneIds",
            "ZoneId.static ofOffset", "ZonedDateTime.static ofLocal",
            "ZonedDateTime.static ofStrict", "ZonedDateTime.toOffsetDateTime", "ZonedDateTime.withEarlierOffsetAtOverlap",
            "ZonedDateTime.withFixedOffsetZone", "ZonedDateTime.withLaterOffsetAtOverlap",
        ]),
    ]
}
