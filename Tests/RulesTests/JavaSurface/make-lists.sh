#!/bin/sh
# Writes one list per JDK class the Rules DSL reaches: its public members as `javap -public` (JDK 17) prints
# them, one name a line — `static NAME` for a static method or field, `new` for a constructor, `NAME` for an
# instance method — sorted, each name once. Run from this directory: sh make-lists.sh
set -eu
for class in java.lang.String java.lang.Math java.lang.Integer java.lang.Long java.lang.Double java.lang.Float \
    java.lang.Boolean java.lang.Character java.time.ZonedDateTime java.time.LocalDateTime java.time.LocalDate \
    java.time.LocalTime java.time.Instant java.time.Duration java.time.Period java.time.temporal.ChronoUnit \
    java.time.DayOfWeek java.time.Month java.time.ZoneId java.time.format.DateTimeFormatter java.util.List \
    java.util.ArrayList java.util.Map java.util.HashMap java.util.Set java.util.HashSet java.util.Random \
    java.util.UUID java.net.URLEncoder java.net.URLDecoder; do
  simple=${class##*.}
  javap -public "$class" | sed -n 's/^  //p' | awk -v cls="$class" '
    /^[^(]*\(/ || /;$/ {
      line = $0
      sub(/ throws .*/, "", line)
      isStatic = (line ~ /(^| )static /)
      if (index(line, "(") > 0) {
        head = substr(line, 1, index(line, "(") - 1)
        n = split(head, words, " ")
        name = words[n]
        sub(/.*\./, "", name)
        if (head ~ (cls "$") || name == "") { print "new"; next }
        if (cls ~ ("\\." name "$")) { print "new"; next }
      } else {
        sub(/;$/, "", line)
        n = split(line, words, " ")
        name = words[n]
      }
      print (isStatic ? "static " : "") name
    }' | sort -u > "$simple.txt"
done
