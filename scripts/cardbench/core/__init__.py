"""The shared vocabulary every other part uses: units and sizes, buses, card titles, paths. Imports
nothing else of cardbench, so anything may import it."""
