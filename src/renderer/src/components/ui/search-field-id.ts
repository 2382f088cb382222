/**
 * Whichever scope's search box is shown has this id: Ctrl/Cmd+K and "/" reach it, and Up from the
 * first hit of a list returns to it.
 */
export const searchFieldId = 'library-search';
