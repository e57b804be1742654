"""The KMeans assignment kernel families, one module each (libraries/kmeans/family.py re-exports
their names and lists the modules)."""
