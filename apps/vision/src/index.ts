// Public surface of the vision app for other workspaces and tests.
export {};
