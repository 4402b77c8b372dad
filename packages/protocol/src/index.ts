// The wire protocol between the service and its views. See README.md.
export {};
