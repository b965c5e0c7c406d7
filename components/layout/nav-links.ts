// The header's destinations, shown inline on wide screens and in the menu on phones.
export const navLinks: { href: string; label: string }[] = [
  { href: "/settings/connectors", label: "Connectors" },
  { href: "/settings/personas", label: "Personas" },
  { href: "/settings/providers", label: "Providers" },
  { href: "/metrics-view", label: "Metrics" },
];
