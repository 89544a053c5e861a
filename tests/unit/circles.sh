#!/bin/sh
# circles.sh - within each layer of libcuemu, the files that call one
# another in a circle (each reaches the other through calls) are exactly
# those tests/unit/circles.txt lists. A new circle, or a file joining one,
# fails; so does a listed circle that shrank or went, until the list says
# so: the list is the record of what is still to be untangled (DESIGN.md,
# "Layers"), and it may only get shorter.
#
# The calls are read with nm from the built objects, as layers.sh reads
# them: file A calls file B when A's object uses a symbol B's defines.
set -u
: "${srcdir:=.}" "${top_builddir:=.}"
obj=$top_builddir/runtime
list=$srcdir/tests/unit/circles.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
layers="cudart driver model outward exec"

# "user definer" for every call from one file of layer $1 to another.
edges() {
	: >"$tmp/def"
	: >"$tmp/use"
	for o in "$obj/$1"/.libs/libcuemu_la-*.o; do
		[ -f "$o" ] || continue
		f=$(basename "$o" .o)
		f=${f#libcuemu_la-}
		nm --defined-only -g "$o" | awk -v f="$f" 'NF == 3 { print $3, f }' >>"$tmp/def"
		nm --undefined-only "$o" | awk -v f="$f" '{ print $NF, f }' >>"$tmp/use"
	done
	sort -k1,1 -o "$tmp/def" "$tmp/def"
	sort -k1,1 -o "$tmp/use" "$tmp/use"
	join "$tmp/use" "$tmp/def" | awk '$2 != $3 { print $2, $3 }' | sort -u
}

# The circles of a graph given as edges: one line each, its files sorted.
# Files in one circle are those that reach each other (Warshall's
# closure: a layer has tens of files).
circles() {
	awk '
	{ if (!($1 in id)) { id[$1] = n; name[n++] = $1 }
	  if (!($2 in id)) { id[$2] = n; name[n++] = $2 }
	  r[id[$1], id[$2]] = 1 }
	END {
		for (k = 0; k < n; k++)
			for (i = 0; i < n; i++)
				if (r[i, k])
					for (j = 0; j < n; j++)
						if (r[k, j])
							r[i, j] = 1
		for (i = 0; i < n; i++) {
			line = ""
			for (j = 0; j < n; j++)
				if (i != j && r[i, j] && r[j, i])
					line = line " " name[j]
			if (line != "")
				print name[i] line
		}
	}' | while read -r line; do
		echo "$line" | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//'
		echo
	done | sort -u
}

echo "1..$(echo $layers | wc -w)"
i=0
for l in $layers; do
	i=$((i + 1))
	edges "$l" | circles | sed "s/^/$l: /" >"$tmp/found"
	grep "^$l: " "$list" | sort >"$tmp/listed" || true
	if [ ! -s "$tmp/def" ]; then
		echo "not ok $i - the $l layer's circles are those listed"
		echo "# no objects under $obj/$l: build first"
	elif cmp -s "$tmp/found" "$tmp/listed"; then
		echo "ok $i - the $l layer's circles are those listed ($(wc -l <"$tmp/found"))"
	else
		echo "not ok $i - the $l layer's circles are those listed"
		diff "$tmp/listed" "$tmp/found" | sed -n 's/^[<>]/#&/p'
		echo "# (< listed in circles.txt, > found in the objects)"
	fi
done
