; scalar multiply and multiply-accumulate on the SPU: per index point i,
; hi = the high word of the signed 64-bit product s * (t + i) (llvm.tpc.mul
; i32 with UPPER32, 4) and f = 1.5 * float(i) + z (llvm.tpc.mac f32, one
; rounding); out0 = hi, out1 = f, broadcast
target triple = "tpc"

define void @main(i32 %s, i32 %t, float %z) {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %body

body:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %x = mul i32 %i, 64
  %c = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  %ti = add i32 %t, %i
  %hi = call i32 @llvm.tpc.mul.i32.i32.i32.i1(i32 %s, i32 %ti, i8 2, i32 4, i32 undef, i1 true, i1 false)
  %fi = sitofp i32 %i to float
  %f = call float @llvm.tpc.mac.f32.f32.i1(float 1.500000e+00, float %fi, i8 0, i32 0, float %z, i1 true, i1 false)
  %hv = insertelement <64 x i32> undef, i32 %hi, i32 0
  %h = shufflevector <64 x i32> %hv, <64 x i32> undef, <64 x i32> zeroinitializer
  %fv = insertelement <64 x float> undef, float %f, i32 0
  %fs = shufflevector <64 x float> %fv, <64 x float> undef, <64 x i32> zeroinitializer
  call void @llvm.tpc.st.tnsr.v64i32(<5 x i32> %c, i8 0, <64 x i32> %h, i32 0, i1 true, i1 false)
  call void @llvm.tpc.st.tnsr.v64f32(<5 x i32> %c, i8 1, <64 x float> %fs, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare i32 @llvm.tpc.mul.i32.i32.i32.i1(i32, i32, i8, i32, i32, i1, i1)
declare float @llvm.tpc.mac.f32.f32.i1(float, float, i8, i32, float, i1, i1)
declare void @llvm.tpc.st.tnsr.v64i32(<5 x i32>, i8, <64 x i32>, i32, i1, i1)
declare void @llvm.tpc.st.tnsr.v64f32(<5 x i32>, i8, <64 x float>, i32, i1, i1)
