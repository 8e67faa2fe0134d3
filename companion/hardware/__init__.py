"""The Pi side: buttons and lights, the camera guard, the systemd watchdog and `companion doctor`."""
