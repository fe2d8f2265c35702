"""Generic helpers that know nothing of declarations: strongly connected components of a
directed graph (`graph`), how many worker processes a command may start and how (`pool`),
aligned plain-text tables and a coloured diff (`textui`). Takes and hands on plain values;
imports no other part of the compiler."""
