import type { ReactNode } from "react";

export function Card({ children, className = "", id }: { children: ReactNode; className?: string; id?: string }) {
  return (
    <section id={id} className={`scroll-mt-4 rounded-2xl border border-line bg-white p-5 shadow-sm ${className}`}>
      {children}
    </section>
  );
}
