"""Print the top functions (cumulative and own time) of each rank's cProfile file."""
import glob
import pstats
import sys

for f in sorted(glob.glob(sys.argv[1] + ".*")):
    print("=====", f)
    st = pstats.Stats(f)
    st.sort_stats("cumulative").print_stats(25)
    st.sort_stats("tottime").print_stats(15)
