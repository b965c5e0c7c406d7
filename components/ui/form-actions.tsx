// The row of buttons that ends a form: the submit button (disabled while the form is pending) and,
// when the form can be left, a Cancel button beside it.
import { Button } from "@/components/ui/button.tsx";

type Props = { submitLabel: string; isPending: boolean; onCancel?: () => void };

export function FormActions({ submitLabel, isPending, onCancel }: Props) {
  return (
    <div className="flex gap-2">
      <Button type="submit" disabled={isPending}>
        {submitLabel}
      </Button>
      {onCancel && (
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      )}
    </div>
  );
}
