/** The camera's live picture (Settings → Camera, the Station screen's corner): the one stream the page keeps. */
import { useEffect, useRef } from 'react';
import { useCamera } from './cameraStore';

export function CameraVideo(props: { className?: string; testId: string; label: string }) {
  const stream = useCamera((s) => s.stream);
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const v = ref.current;
    if (!v) return;
    v.srcObject = stream;
    if (stream) void v.play().catch(() => undefined);
  }, [stream]);
  return (
    <video
      ref={ref}
      className={props.className}
      muted
      playsInline
      aria-label={props.label}
      data-testid={props.testId}
    />
  );
}
