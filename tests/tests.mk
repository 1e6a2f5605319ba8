# (filled in below)
