"""Urban War: Strike-Team Actions 2nd edition (quick-start), rules catalog shared/rules/urbanwar.md (UW- IDs)."""
