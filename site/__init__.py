"""Static catalogue site and charts (`esrpdb site`, `esrpdb plot`)."""
