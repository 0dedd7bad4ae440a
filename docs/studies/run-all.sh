#!/bin/sh
# Runs every study of docs/studies/ again, with the commands written on the study pages.
# Run it from the repository root: the rows and the terminal summaries go to ./studies-data/,
# the pictures to docs/studies/images/NAME/. RUMMYKIT names the command (default: rummykit).
# Names given as arguments run only those studies: sh docs/studies/run-all.sh ladder-mummus strong-mummus
set -eu
ONLY=" $* "
R="${RUMMYKIT:-rummykit}"
IMG=docs/studies/images
mkdir -p studies-data

study() {  # study NAME COMMAND ARGS...: run one study, keep its summary in studies-data/NAME.txt
  name=$1
  shift
  if [ "$ONLY" != "  " ]; then
    case "$ONLY" in *" $name "*) ;; *) return 0 ;; esac
  fi
  "$R" "$@" --no-progress --seed 1 --out "studies-data/$name.parquet" --report "$IMG/$name" | tee "studies-data/$name.txt"
  rm -f "$IMG/$name/report.html"  # the pages show the PNG files
}

study first-player-rummikub simulate rummikub --players 2 --bot greedy --games 2000
study first-player-domino-rummikub simulate domino-rummikub --players 2 --bot greedy --games 2000 --option target=none
study first-player-conveyor simulate conveyor --players 2 --bot greedy --games 2000 --option target=0
study first-player-two-tray simulate two-tray --players 2 --bot greedy --games 600
study first-player-mummus simulate mummus --players 2 --bot greedy --games 2000 --option target=0
study rummikub-opening simulate rummikub --players 2 --bot greedy --games 1000 --vary initial_meld_points=0,30
study conveyor-sets simulate conveyor --players 2 --bot greedy --games 600 --option target=0 --vary set=6,9,12
study domino-starting-group simulate domino-rummikub --players 2 --bot greedy --games 1000 --option target=none \
  --vary starting_group_size=exactly-3,3-or-more
study ladder-rummikub tournament rummikub --bots strong,greedy,random --games 100
study ladder-domino-rummikub tournament domino-rummikub --bots strong,strong:iterations=1,greedy,random --games 100 \
  --option target=none
study ladder-conveyor tournament conveyor --bots strong,strong:iterations=4,greedy,random --games 100 --option target=0
study ladder-two-tray tournament two-tray --bots strong,strong:iterations=10,greedy,random --games 100
study ladder-mummus tournament mummus --bots strong,strong:iterations=2,greedy,random --games 100 --option target=0
# strong against greedy heads-up, 400 games a pairing, every game a single round (the bar of issue 24)
study strong-rummikub tournament rummikub --bots strong,greedy --games 400
study strong-domino-rummikub tournament domino-rummikub --bots strong,greedy --games 400 --option target=none
study strong-conveyor tournament conveyor --bots strong,greedy --games 400 --option target=0
study strong-two-tray tournament two-tray --bots strong,greedy --games 400
study strong-mummus tournament mummus --bots strong,greedy --games 1200 --option target=0
