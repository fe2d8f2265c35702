"""Directed graphs, generically: the pattern translator (generator/front/patterns.py) finds
nested quantifiers whose matching time can explode with it, and the schema graph
(generator/front/schema_graph.py) the groups a schema reaches recursively."""

from __future__ import annotations

from typing import TypeVar

_Vertex = TypeVar("_Vertex")


def components(edges: dict[_Vertex, list[_Vertex]]) -> dict[_Vertex, int]:
    """Strongly connected components (Tarjan, iterative): vertex -> its component's number."""
    index: dict[_Vertex, int] = {}
    low: dict[_Vertex, int] = {}
    on_stack: set[_Vertex] = set()
    stack: list[_Vertex] = []
    component: dict[_Vertex, int] = {}
    counter = 0
    for root in edges:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on_stack.add(v)
            targets = edges.get(v, [])
            if i < len(targets):
                work.append((v, i + 1))
                w = targets[i]
                if w not in index:
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component[w] = index[v]
                    if w == v:
                        break
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return component
